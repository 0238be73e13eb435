-- Where an admin operation puts a request back into a queue (requeue-dead-letter.lua, requeue-failed.lua,
-- take-over-scrapy-batch.lua); needs the includes polite, queue-order and reply-codes. On a polite queue an available
-- request's place is its host's queue, and its host is a function of its URL the workers compute in TypeScript
-- (`hostKey`): so the caller computes it the same way (src/politeness/requeue-politeness.ts) and passes the hosts
-- last, as the add path does (NUL then a JSON array, one host per request entry of the call). The queue's own meta
-- says whether it is polite, so a call and a queue that disagree are refused before anything is written.
local requeueHosts, requeueMaxConc = nil, 0

-- Reads the hosts argument. Returns an error reply when the call and the queue disagree about politeness, else nil.
local function requeueBegin()
  requeueHosts = politeArg()
  if requeueHosts then
    local minDelay, maxConc = politeConfig()
    if not minDelay then return politeRefusal() end
    requeueMaxConc = maxConc
  elseif redis.call('HEXISTS', KEYS[1], 'politeMinDelayMs') == 1 then
    return redis.error_reply(ERR_POLITENESS .. " the queue was created with politeness and the call names no request's host")
  end
  return nil
end

-- Index of the last argument before the hosts argument.
local function requeueLastArg()
  if requeueHosts then return #ARGV - 1 end
  return #ARGV
end

-- Makes request `id` (the k-th request entry of the call, just stored in data) available at the tail: on a polite
-- queue in its host's queue with the host scheduled (at its next allowed time, so the host's delay holds), else at
-- the end of the FIFO order.
local function requeuePlace(id, k)
  if requeueHosts then
    politeMakeAvailable(id, politeOrder(false), requeueHosts[k], requeueMaxConc)
  else
    placeNew(id, false)
  end
end

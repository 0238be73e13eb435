-- The politeness branch of update-request.lua (needs the includes polite and reply-codes). Without the politeness
-- argument every function below answers false at once and update-request.lua does what it always did.
local politeItems = nil
local politeMaxConcU = 0

-- Reads the politeness argument; returns an error reply when the call is polite and the queue is not.
local function politeUpdateBegin()
  politeItems = politeArg()
  if not politeItems then return nil end
  local minDelay, maxConc = politeConfig()
  if not minDelay then return politeRefusal() end
  politeMaxConcU = maxConc
  return nil
end

-- Index of the last request argument (the politeness argument, when present, follows the requests).
local function politeUpdateLastArg()
  if politeItems then return #ARGV - 1 end
  return #ARGV
end

-- A request (k-th of the call) becomes available: into its host's queue. False without politeness.
local function politeAvailable(id, order, k)
  if not politeItems then return false end
  politeMakeAvailable(id, order, politeItems[k][1], politeMaxConcU)
  return true
end

-- A request that was not locked is handled: out of its host's queue or the delayed set. False without politeness.
local function politeUnavailable(id, k)
  if not politeItems then return false end
  politeMakeUnavailable(id, politeItems[k][1], politeMaxConcU)
  return true
end

-- The caller's lock of a request ended as it was handled: its host's slot is free again.
local function politeLockEnded(id, now)
  if not politeItems then return end
  local minDelay, maxConc = politeConfig()
  local _, host = politeEndLock(id, now, minDelay)
  if host then politeSchedule(host, maxConc) end
end

-- A reclaim (the k-th request) by the lock owner, or of a request no one holds: a locked one goes back to its host
-- after its retry not-before delay; an unlocked one stays where it is (moved to the head with forefront). False
-- without politeness.
local function politeReclaim(id, now, k, owner, forefront)
  if not politeItems then return false end
  local order = nil
  if forefront then order = politeOrder(true) end
  if owner then
    if politeReleaseLock(id, now, tonumber(politeItems[k][2]) or 0, order) then return true end
    -- A lock without a polite host: released here, made available on the host the caller names.
    order = order or tonumber(redis.call('HGET', KEYS[10], id))
    redis.call('ZREM', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
    redis.call('HDEL', KEYS[10], id)
  end
  local host = politeItems[k][1]
  local kept = redis.call('HGET', P_HOSTOF, id)
  if kept and redis.call('ZSCORE', P_DELAYED, id) then
    -- Waiting for its not-before time: only its order changes (forefront).
    local keptOrder, keptHost = splitHostOf(kept)
    redis.call('HSET', P_HOSTOF, id, (order or keptOrder) .. ' ' .. keptHost)
  else
    -- Available: its place in its host's queue, unless moved to the head (or it had none: at the tail).
    order = order or tonumber(redis.call('ZSCORE', hostQueue(host), id)) or politeOrder(false)
    politeMakeAvailable(id, order, host, politeMaxConcU)
  end
  return true
end

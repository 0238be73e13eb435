--[[
  Puts requests that failed for good back into the queue, at the tail, with the state the caller prepared
  (retryCount reset, handledAt removed). Counters move exactly: a kept failed request goes from handled to pending,
  a forgotten one (the 'forget' mode) comes back into the queue (total and pending). O(log N) per request.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] failed index (ZSET id -> failedAt ms),
  KEYS[14] failed data (HASH id -> record of forgotten failed requests), KEYS[15] kept failed data (see
  update-request.lua); a kept one leaves the handled store of the queue's mode ('bits': its bits stay, harmless)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  then two arguments per request: request id, request record to store

  Returns one code per request: REQUEUE_REQUEUED, REQUEUE_MISSING (not in the failed index) or REQUEUE_ALREADY_QUEUED
  (the uniqueKey was added again since it failed; only the failed entry is removed). Values: src/lua/reply-codes.json.
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "request-state"
local now = redisNowMs(ARGV[1])
-- A polite queue keeps available requests per host, and the host key of a request is computed by its workers'
-- hostKey: this script cannot place one, so it refuses rather than add a request no worker would take.
if redis.call('HEXISTS', KEYS[1], 'politeMinDelayMs') == 1 then
  return redis.error_reply(ERR_POLITENESS .. ' this operation is not available on a queue created with politeness yet')
end
local out = {}
local moved = 0
for i = 2, #ARGV, 2 do
  local id, json = ARGV[i], ARGV[i + 1]
  local code = REQUEUE_MISSING
  if redis.call('ZREM', KEYS[13], id) == 1 then
    local forgotten = redis.call('HDEL', KEYS[14], id) == 1
    redis.call('HDEL', KEYS[15], id)
    local state = requestState(id)
    if state == 'pending' or (forgotten and state ~= nil) then
      -- Pending again, or forgotten and added again since: the queue already has it.
      code = REQUEUE_ALREADY_QUEUED
    elseif (not forgotten) and state == nil then
      code = REQUEUE_MISSING -- kept, but deleted since
    else
      if state == 'handled' then unmarkHandled(id) end
      redis.call('HSET', KEYS[2], id, json)
      placeNew(id, false)
      redis.call('HINCRBY', KEYS[1], 'pending', 1)
      if forgotten then
        redis.call('HINCRBY', KEYS[1], 'total', 1)
      else
        redis.call('HINCRBY', KEYS[1], 'handled', -1)
      end
      moved = moved + 1
      code = REQUEUE_REQUEUED
    end
  end
  out[#out + 1] = code
end
handledSave()
if moved > 0 then redis.call('HSET', KEYS[1], 'modifiedAt', now) end
return out

--[[
  Puts requests that failed for good back into the queue, at the tail, with the state the caller prepared
  (retryCount reset, handledAt removed). Counters move exactly: a kept failed request goes from handled to pending,
  a forgotten one (the 'forget' mode) comes back into the queue (total and pending). O(log N) per request.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] failed index (ZSET id -> failedAt ms),
  KEYS[14] failed data (HASH id -> record of forgotten failed requests)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  then two arguments per request: request id, request record to store

  Returns one code per request: REQUEUE_REQUEUED, REQUEUE_MISSING (not in the failed index) or REQUEUE_ALREADY_QUEUED
  (the uniqueKey was added again since it failed; only the failed entry is removed). Values: src/lua/reply-codes.json.
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "handled-store"
local now = redisNowMs(ARGV[1])
local out = {}
local moved = 0
for i = 2, #ARGV, 2 do
  local id, json = ARGV[i], ARGV[i + 1]
  local code = REQUEUE_MISSING
  if redis.call('ZREM', KEYS[13], id) == 1 then
    local forgotten = redis.call('HDEL', KEYS[14], id) == 1
    local pending = redis.call('HEXISTS', KEYS[2], id) == 1
    local kept = (not pending) and isHandled(id)
    if pending or (forgotten and kept) then
      -- Pending again, or forgotten and added (and handled) again since: the queue already has it.
      code = REQUEUE_ALREADY_QUEUED
    elseif forgotten or kept then
      if kept then
        unmarkHandled(id)
        redis.call('HINCRBY', KEYS[1], 'handled', -1)
      else
        redis.call('HINCRBY', KEYS[1], 'total', 1)
      end
      redis.call('HSET', KEYS[2], id, json)
      placeNew(id, false)
      redis.call('HINCRBY', KEYS[1], 'pending', 1)
      moved = moved + 1
      code = REQUEUE_REQUEUED
    end
  end
  out[#out + 1] = code
end
if moved > 0 then redis.call('HSET', KEYS[1], 'modifiedAt', now) end
return out

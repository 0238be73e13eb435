--[[
  Deletes one request from the queue (data, order, lock, or the handled store) and moves the counters.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] stalls (see list-and-lock-head.lua)
  optional: KEYS[14] failed index, KEYS[15] failed data, KEYS[16] kept failed data (the request leaves them too; a
  forgotten failed request exists only there). A handled request leaves the handled store of the queue's mode
  (includes/handled-store.lua).

  ARGV[1] request id
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns DELETE_DELETED when the request existed (in the queue or the failed index), DELETE_MISSING otherwise, and
  DELETE_KEPT_AS_BITS (nothing changed) for a handled request of a 'bits' queue: its bits are shared, so it cannot be
  forgotten. Values: src/lua/reply-codes.json.
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "polite"
--- @include "handled-store"
local now = redisNowMs(ARGV[2])
local id = ARGV[1]
local wasFailed = 0
if redis.call('HEXISTS', KEYS[2], id) == 0 and handledMode() == 'bits' and isHandled(id) then return DELETE_KEPT_AS_BITS end
-- Politeness: a locked request frees its host's slot; a delayed one leaves the delayed set.
politeForget(id, now)
if #KEYS >= 15 then
  wasFailed = redis.call('ZREM', KEYS[14], id)
  redis.call('HDEL', KEYS[15], id)
  if #KEYS >= 16 then redis.call('HDEL', KEYS[16], id) end
end
redis.call('HDEL', KEYS[13], id)
if redis.call('HEXISTS', KEYS[2], id) == 1 then
  unplace(id)
  redis.call('HDEL', KEYS[2], id)
  recountAfterRemoval(0)
elseif unmarkHandled(id) then
  -- Handled ('request' / 'key' mode): out of the handled store.
  handledSave()
  recountAfterRemoval(1)
elseif wasFailed == 1 then
  return DELETE_DELETED
else
  return DELETE_MISSING
end
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return DELETE_DELETED

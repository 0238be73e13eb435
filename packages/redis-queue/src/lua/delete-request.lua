--[[
  Deletes one request from the queue (data, order, lock, or the handled store) and moves the counters.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua),
  KEYS[9] stalls (see list-and-lock-head.lua)
  optional: KEYS[10] failed index, KEYS[11] failed data, KEYS[12] kept failed data (the request leaves them too; a
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
--- @include "unindex-request"
--- @include "polite"
--- @include "handled-store"
local now = redisNowMs(ARGV[2])
local id = ARGV[1]
local wasFailed = 0
if redis.call('HEXISTS', KEYS[2], id) == 0 and handledMode() == 'bits' and isHandled(id) then return DELETE_KEPT_AS_BITS end
-- Politeness: a locked request frees its host's slot; a delayed one leaves the delayed set.
politeForget(id, now)
if #KEYS >= 11 then
  wasFailed = redis.call('ZREM', KEYS[10], id)
  redis.call('HDEL', KEYS[11], id)
  if #KEYS >= 12 then redis.call('HDEL', KEYS[12], id) end
end
redis.call('HDEL', KEYS[9], id)
if redis.call('HDEL', KEYS[2], id) == 1 then
  unindexRequest(id)
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

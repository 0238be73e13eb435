--[[
  Deletes one request from the queue (data, order, lock) and moves the counters.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] stalls (see list-and-lock-head.lua)
  optional: KEYS[14] failed index, KEYS[15] failed data (the request leaves them too; a forgotten failed request
  exists only there)

  ARGV[1] request id
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns 1 when the request existed (in the queue or the failed index), 0 otherwise.
]]
--- @include "redis-time"
--- @include "queue-order"
--- @include "handled-store"
local now = redisNowMs(ARGV[2])
local id = ARGV[1]
local wasFailed = 0
if #KEYS >= 15 then
  wasFailed = redis.call('ZREM', KEYS[14], id)
  redis.call('HDEL', KEYS[15], id)
end
redis.call('HDEL', KEYS[13], id)
if redis.call('HEXISTS', KEYS[2], id) == 1 then
  unplace(id)
  redis.call('HDEL', KEYS[2], id)
  recountAfterRemoval(0)
elseif unmarkHandled(id) then
  recountAfterRemoval(1)
else
  return wasFailed
end
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return 1

--[[
  Deletes one request from the queue (data, order, lock) and moves the counters.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua),
  KEYS[9] stalls (see list-and-lock-head.lua)
  optional: KEYS[10] failed index, KEYS[11] failed data (the request leaves them too; a forgotten failed request
  exists only there)

  ARGV[1] request id
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns 1 when the request existed (in the queue or the failed index), 0 otherwise.
]]
--- @include "redis-time"
--- @include "unindex-request"
--- @include "polite"
local now = redisNowMs(ARGV[2])
local id = ARGV[1]
local wasFailed = 0
-- Politeness: a locked request frees its host's slot; a delayed one leaves the delayed set.
politeForget(id, now)
if #KEYS >= 11 then
  wasFailed = redis.call('ZREM', KEYS[10], id)
  redis.call('HDEL', KEYS[11], id)
end
redis.call('HDEL', KEYS[9], id)
if redis.call('HDEL', KEYS[2], id) == 0 then return wasFailed end
unindexRequest(id)
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return 1

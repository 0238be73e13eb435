--[[
  Deletes one request from the queue (data, order, lock) and moves the counters.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua)

  ARGV[1] request id
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns 1 when the request existed, 0 otherwise.
]]
--- @include "redis-time"
local now = redisNowMs(ARGV[2])
local id = ARGV[1]
if redis.call('HDEL', KEYS[2], id) == 0 then return 0 end
if redis.call('ZREM', KEYS[3], id) == 1 then
  redis.call('HINCRBY', KEYS[1], 'pending', -1)
else
  redis.call('HINCRBY', KEYS[1], 'handled', -1)
end
redis.call('HINCRBY', KEYS[1], 'total', -1)
redis.call('ZREM', KEYS[4], id)
redis.call('ZREM', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return 1

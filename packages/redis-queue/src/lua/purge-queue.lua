--[[
  Removes every request, lock and dead letter of a queue and resets its counters; keeps the queue's identity
  (id, name, createdAt). Explicit admin action only: Crawlee's purgeOnStart never reaches it.

  KEYS[1..12] as in add-requests.lua, then the keys deleted with the requests: KEYS[13] stalls (see
  list-and-lock-head.lua), then optional ones (failed index, failed data, suspects, producer leases)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[2] '1' to delete the metadata too (drop), '0' to keep it (purge)

  Returns the number of requests that were in the queue.
]]
--- @include "redis-time"
--- @include "handled-store"
local now = redisNowMs(ARGV[1])
local total = redis.call('HLEN', KEYS[2]) + handledCount()
for i = 2, #KEYS do redis.call('UNLINK', KEYS[i]) end
if ARGV[2] == '1' then
  redis.call('UNLINK', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'total', 0, 'pending', 0, 'handled', 0, 'modifiedAt', now)
  redis.call('HDEL', KEYS[1], 'firstClient', 'multipleClients', 'qhead')
end
return total

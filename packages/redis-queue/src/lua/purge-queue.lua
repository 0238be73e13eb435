--[[
  Removes every request, lock and dead letter of a queue and resets its counters; keeps the queue's identity
  (id, name, createdAt). Explicit admin action only: Crawlee's purgeOnStart never reaches it.

  KEYS[1..8] as in add-requests.lua, then the keys deleted with the requests: KEYS[9] stalls (see
  list-and-lock-head.lua), then optional ones (failed index, failed data, suspects, producer leases)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[2] '1' to delete the metadata too (drop), '0' to keep it (purge)

  Returns the number of requests that were in the queue.
]]
--- @include "redis-time"
--- @include "polite"
local now = redisNowMs(ARGV[1])
local total = redis.call('HLEN', KEYS[2])
redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
for i = 9, #KEYS do redis.call('UNLINK', KEYS[i]) end
-- The politeness keys (derived from KEYS[1], see includes/polite.lua); the politeness mode itself stays in meta.
politePurge()
if ARGV[2] == '1' then
  redis.call('UNLINK', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'total', 0, 'pending', 0, 'handled', 0, 'modifiedAt', now)
  redis.call('HDEL', KEYS[1], 'firstClient', 'multipleClients')
end
return total

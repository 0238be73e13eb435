--[[
  Removes every request (pending, locked and the handled store of the queue's mode), lock and dead letter of a queue
  and resets its counters; keeps the queue's identity (id, name, createdAt) and its handledRequests mode. Explicit admin action only: Crawlee's purgeOnStart never reaches it.

  KEYS[1..12] as in add-requests.lua, then the keys deleted with the requests: KEYS[13] stalls (see
  list-and-lock-head.lua), then optional ones (failed index, failed data, suspects, producer leases)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[2] '1' to delete the metadata too (drop), '0' to keep it (purge)

  Returns the number of requests that were in the queue.
]]
--- @include "redis-time"
--- @include "polite"
--- @include "handled-store"
local now = redisNowMs(ARGV[1])
local total = redis.call('HLEN', KEYS[2])
-- The handled store of the queue's mode goes too: 'request' KEYS[12] done (with the keys below), every 'key' index
-- bucket (O(buckets)), 'bits' blocks (re-allocated empty when the queue stays).
local store = hsLoad()
local tag = HS_TAG
if store.mode == 'request' then
  total = total + redis.call('HLEN', KEYS[12])
elseif store.mode == 'key' then
  total = total + store.N
  for b = 0, 2 ^ store.L + store.S - 1 do redis.call('UNLINK', tag .. ':ix:' .. string.format('%d', b)) end
else
  total = total + tonumber(redis.call('HGET', KEYS[1], 'handled') or '0')
  for i = 0, store.blocks - 1 do
    redis.call('UNLINK', tag .. ':hb:' .. i)
    if ARGV[2] ~= '1' then redis.call('SETBIT', tag .. ':hb:' .. i, store.bits - 1, 0) end
  end
end
redis.call('UNLINK', tag .. ':failedkept')
for i = 2, #KEYS do redis.call('UNLINK', KEYS[i]) end
-- The politeness keys (derived from KEYS[1], see includes/polite.lua); the politeness mode itself stays in meta.
politePurge()
if ARGV[2] == '1' then
  redis.call('UNLINK', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'total', 0, 'pending', 0, 'handled', 0, 'modifiedAt', now)
  if store.mode == 'key' then redis.call('HSET', KEYS[1], 'hxL', 0, 'hxS', 0, 'hxN', 0) end
  redis.call('HDEL', KEYS[1], 'firstClient', 'multipleClients', 'qhead')
end
return total

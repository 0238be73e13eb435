--[[
  Releases the caller's lock of one request and makes it available again: at its original queue order, or at the
  head with forefront. Idempotent: a request that is not locked by the caller is left alone.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua)

  ARGV[1] request id
  ARGV[2] clientKey of the caller
  ARGV[3] forefront: '1' puts the request at the head of the queue
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise; absent: '0')

  On a polite queue the lock's host gets its slot back and the request returns to its host's queue
  (includes/polite.lua); the lock carries its host, so no politeness argument is needed.

  Returns 1 when a lock was released, 0 otherwise.
]]
--- @include "release-lock"
--- @include "redis-time"
--- @include "polite"
local id = ARGV[1]
if redis.call('HGET', KEYS[6], id) ~= ARGV[2] then return 0 end
if ARGV[3] == '1' and redis.call('ZSCORE', KEYS[3], id) then
  redis.call('ZADD', KEYS[3], -redis.call('HINCRBY', KEYS[1], 'seq', 1), id)
end
if redis.call('HEXISTS', P_HOSTOF, id) == 1 then
  politeReleaseLock(id, redisNowMs(ARGV[4] or '0'), 0, redis.call('ZSCORE', KEYS[3], id))
  return 1
end
if releaseLock(id) then return 1 end
return 0

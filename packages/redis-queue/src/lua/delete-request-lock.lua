--[[
  Releases the caller's lock of one request and makes it available again: at its original queue order, or at the
  head with forefront. Idempotent: a request that is not locked by the caller is left alone.

  KEYS[1..12] the queue's keys (see add-requests.lua)

  ARGV[1] request id
  ARGV[2] clientKey of the caller
  ARGV[3] forefront: '1' puts the request at the head of the queue
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise; absent: '0')

  On a polite queue the lock's host gets its slot back and the request returns to its host's queue
  (includes/polite.lua); the lock carries its host, so no politeness argument is needed.

  Returns 1 when a lock was released, 0 otherwise.
]]
--- @include "queue-order"
--- @include "redis-time"
--- @include "polite"
local id = ARGV[1]
if redis.call('HGET', KEYS[6], id) ~= ARGV[2] then return 0 end
local order = nil
if ARGV[3] == '1' then order = forefrontOrder() end
if redis.call('HEXISTS', P_HOSTOF, id) == 1 then
  politeReleaseLock(id, redisNowMs(ARGV[4] or '0'), 0, order)
  return 1
end
if releaseLock(id, order) then return 1 end
return 0

--[[
  One worker's heartbeat (worker liveness, docs/liveness.md): the lock owner is alive until the expiry written here.
  Called from an unref'd timer of each queue client that holds locks, a few times per liveness window, never per
  request. The lock scripts read this set when a lock's check time has come: a live owner keeps the lock (its check
  time moves to the owner's heartbeat expiry), a gone owner's locks return (includes/recover-expired-locks.lua).

  KEYS[1] live  ZSET lock owner (clientKey) -> heartbeat expiry (ms, Redis time)

  ARGV[1] lock owner (clientKey)
  ARGV[2] liveness window in ms: the owner counts as alive until now + this
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Entries expired for more than a minute are pruned (absent and expired read the same: gone); the key expires when
  no worker beat for ten windows (at least ten minutes), so a finished fleet leaves nothing behind.

  Returns { now, previous expiry or -1 when absent } (ms, Redis time): a previous expiry before now means this
  owner's heartbeat had lapsed (its event loop was blocked past the window, or Redis was out of reach).
]]
--- @include "redis-time"
local now = redisNowMs(ARGV[3])
local window = tonumber(ARGV[2])
local previous = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '-1')
redis.call('ZADD', KEYS[1], now + window, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - 60000))
redis.call('PEXPIRE', KEYS[1], math.max(window * 10, 600000))
return { now, previous }

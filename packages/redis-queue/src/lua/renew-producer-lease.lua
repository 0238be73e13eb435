--[[
  Takes or renews a producer lease: while any lease is alive, list-and-lock-head answers queueHasLockedRequests = 1,
  so no worker's Crawlee finishes while a producer holding no request lock (a seeding script, a sitemap reader) is
  still adding. A lease expires on Redis time when its producer stops renewing it (the producer died); expired
  leases are pruned here and by list-and-lock-head. O(log N) in the number of leases.

  KEYS[1..12] the queue's keys (unused here), KEYS[13] leases (ZSET lease id -> expiry in ms, Redis time)

  ARGV[1] lease id (unique per producer)
  ARGV[2] lease time in ms
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns { expiresAt (ms), wasAlive (0|1): 0 when the lease is new or had expired before this renewal }
]]
--- @include "redis-time"
local now = redisNowMs(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[13], '-inf', now)
local wasAlive = 0
if redis.call('ZSCORE', KEYS[13], ARGV[1]) then wasAlive = 1 end
local expiresAt = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[13], expiresAt, ARGV[1])
return { expiresAt, wasAlive }

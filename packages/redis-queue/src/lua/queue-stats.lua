--[[
  Reads the counters of a request queue in one consistent step. Read-only, O(log N).

  KEYS[1] meta, KEYS[5] locks, KEYS[7] dead (KEYS[1..12] as in add-requests.lua)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns { exists (0|1), total, pending, handled, locked (unexpired locks), deadLetters, expiredLocks }
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "meta-number"
local now = redisNowMs(ARGV[1])
local m = redis.call('HMGET', KEYS[1], 'total', 'pending', 'handled')
local exists = redis.call('EXISTS', KEYS[1])
local locked = redis.call('ZCOUNT', KEYS[5], '(' .. now, '+inf')
local allLocks = redis.call('ZCARD', KEYS[5])
return { exists, metaNumber('total', m[1]) or 0, metaNumber('pending', m[2]) or 0, metaNumber('handled', m[3]) or 0, locked,
  redis.call('HLEN', KEYS[7]), allLocks - locked }

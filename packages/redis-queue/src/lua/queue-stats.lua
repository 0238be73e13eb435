--[[
  Reads the counters of a request queue in one consistent step. Read-only, O(log N).

  KEYS[1] meta, KEYS[5] locks, KEYS[6] owner, KEYS[7] dead (KEYS[1..12] as in add-requests.lua),
  KEYS[13] live (ZSET lock owner -> heartbeat expiry ms, heartbeat.lua)

  With worker liveness a lock's score is a check time, moved on only by the next lock script: a lock past its score
  whose owner's heartbeat is alive is still held, so it counts as locked (at most 1,000 such locks are looked at, one
  HGET and one ZSCORE per distinct owner each: a read-only view, bounded).

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
if allLocks > locked then
  local beats = {}
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'LIMIT', 0, 1000)) do
    local holder = redis.call('HGET', KEYS[6], id)
    if holder then
      if beats[holder] == nil then beats[holder] = tonumber(redis.call('ZSCORE', KEYS[13], holder) or '0') end
      if beats[holder] > now then locked = locked + 1 end
    end
  end
end
return { exists, metaNumber('total', m[1]) or 0, metaNumber('pending', m[2]) or 0, metaNumber('handled', m[3]) or 0, locked,
  redis.call('HLEN', KEYS[7]), allLocks - locked }

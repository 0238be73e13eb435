--[[
  Publishes one worker's stats record and adds its counter deltas to the crawl-wide counters, in one atomic step on
  Redis time. Called by a worker a few times a minute from a background timer (src/stats/), never per request.

  KEYS[1] workers  ZSET  worker id -> last seen (ms, Redis time); entries older than the retention are pruned here
  KEYS[2] worker   HASH  this worker's record; expires ARGV[2] ms after the last publish, so a dead worker's is gone
  KEYS[3] crawl    HASH  crawl-wide counters: handled, failed, retried, alreadyPresent; dedupKey/dedupField

  ARGV[1] worker id
  ARGV[2] record TTL in ms
  ARGV[3] retention of ids in KEYS[1] in ms (a dead worker is listed as dead that long)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[5] startedAt in ms, '' on the first publish (then it is set to now)
  ARGV[6] handled delta, ARGV[7] failed delta, ARGV[8] retried delta, ARGV[9] alreadyPresent delta
  ARGV[10] Redis key of the enqueue filter's counter hash, '' when none is attached
  ARGV[11] field of that hash counting filtered requests
  ARGV[12..] field, value pairs of the record (host, pid, clientKey, totals, locks, rate, intervalMs, state)

  Returns { now, startedAt } (ms, Redis time).
]]
--- @include "redis-time"
local now = redisNowMs(ARGV[4])
local startedAt = ARGV[5]
if startedAt == '' then startedAt = tostring(now) end

local fields = { 'id', ARGV[1], 'lastSeen', now, 'startedAt', startedAt }
for i = 12, #ARGV, 2 do
  fields[#fields + 1] = ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
end
redis.call('HSET', KEYS[2], unpack(fields))
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[3])))

local names = { 'handled', 'failed', 'retried', 'alreadyPresent' }
for i, name in ipairs(names) do
  local delta = tonumber(ARGV[5 + i])
  if delta ~= 0 then redis.call('HINCRBY', KEYS[3], name, delta) end
end
if ARGV[10] ~= '' then
  redis.call('HSET', KEYS[3], 'dedupKey', ARGV[10], 'dedupField', ARGV[11])
end
return { now, tonumber(startedAt) }

--[[
  Reads the politeness state of a queue in one atomic step on Redis time. Read-only; O(log hosts + top + hosts at
  their limit, at most 1000 of them counted).

  KEYS[1] meta (see add-requests.lua; the politeness keys are derived from it, see includes/polite.lua)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[2] top: hosts listed with their in-flight count (the most first), and hosts listed with their wait

  Returns { enabled (0|1), minDelayMs, maxConcurrency (0: unlimited), hosts (with available requests),
            hostsWaiting, longestWaitMs, delayed, n (in-flight pairs), host1, inFlight1, ..., hostN, inFlightN,
            then the scheduled hosts that wait, longest first: host, waitMs, ... }
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "polite"
local now = redisNowMs(ARGV[1])
local minDelay, maxConc = politeConfig()
if not minDelay then return { 0, 0, 0, 0, 0, 0, 0 } end
local scheduled = redis.call('ZCARD', P_HOSTS)
local waiting = redis.call('ZCOUNT', P_HOSTS, '(' .. now, '+inf')
local longest = 0
local last = redis.call('ZREVRANGE', P_HOSTS, 0, 0, 'WITHSCORES')
if #last == 2 and tonumber(last[2]) > now then longest = tonumber(last[2]) - now end
-- Hosts at their limit with available requests are off the schedule, but they have requests and wait too.
local full = 0
if maxConc > 0 then
  local atLimit = redis.call('ZRANGEBYSCORE', P_FLIGHT, maxConc, '+inf', 'LIMIT', 0, 1000)
  for _, host in ipairs(atLimit) do
    if redis.call('EXISTS', hostQueue(host)) == 1 then
      full = full + 1
      local nextAt = tonumber(redis.call('HGET', P_NEXT, host) or '0')
      if nextAt - now > longest then longest = nextAt - now end
    end
  end
end
local out = { 1, minDelay, maxConc, scheduled + full, waiting + full, longest, redis.call('ZCARD', P_DELAYED) }
local busiest = redis.call('ZREVRANGE', P_FLIGHT, 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
out[#out + 1] = #busiest / 2
for i = 1, #busiest, 2 do
  out[#out + 1] = busiest[i]
  out[#out + 1] = tonumber(busiest[i + 1])
end
-- The schedule's far end: the hosts whose next allowed time is latest (a backoff, a slow site), O(log hosts + top).
local longestWaits = redis.call('ZREVRANGEBYSCORE', P_HOSTS, '+inf', '(' .. now, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
for i = 1, #longestWaits, 2 do
  out[#out + 1] = longestWaits[i]
  out[#out + 1] = tonumber(longestWaits[i + 1]) - now
end
return out

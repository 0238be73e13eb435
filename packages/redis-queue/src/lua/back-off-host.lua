--[[
  Pushes one host's next allowed time for the whole fleet to at least now + delay (Redis time): a 429 or 503 with
  Retry-After, or a run of errors (the example's hooks). Never moves it earlier. A scheduled host moves on the
  schedule; a host not on it (nothing available, or at max concurrency) gets the time when it returns.

  KEYS[1] meta (see add-requests.lua; the politeness keys are derived from it, see includes/polite.lua)

  ARGV[1] host key
  ARGV[2] delay in ms
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns the host's next allowed time (ms). Error ERR_POLITENESS when the queue was created without politeness.
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "polite"
local now = redisNowMs(ARGV[3])
local minDelay = politeConfig()
if not minDelay then
  return redis.error_reply(ERR_POLITENESS .. ' backOffHost needs a queue created with politeness')
end
local host = ARGV[1]
local until_ = now + tonumber(ARGV[2])
local nextAt = tonumber(redis.call('HGET', P_NEXT, host) or '0')
if until_ > nextAt then
  nextAt = until_
  redis.call('HSET', P_NEXT, host, nextAt)
  redis.call('ZADD', P_HOSTS, 'XX', nextAt, host)
end
return nextAt

--[[
  Prolongs the caller's lock of one request. Fails (error reply) when the request is unknown, handled, not locked, or
  locked by another client: Crawlee's RequestQueue treats a failure as "lost lock, skip this request".

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua)

  ARGV[1] request id
  ARGV[2] lock time in ms
  ARGV[3] clientKey of the caller
  ARGV[4] forefront: '1' moves the request to the head of the queue for when its lock ends
  ARGV[5] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[6] 'expiry' extends from the current expiry (Crawlee MemoryStorage semantics), 'now' from now

  Returns the new lock expiry in ms (Redis time).
  Errors: RQ_NOT_FOUND, RQ_HANDLED, RQ_NOT_LOCKED, RQ_LOCKED_BY_OTHER
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[5])
local id = ARGV[1]
if redis.call('HEXISTS', KEYS[2], id) == 0 then
  return redis.error_reply('RQ_NOT_FOUND request ' .. id .. ' is not in the queue')
end
if not redis.call('ZSCORE', KEYS[3], id) then
  return redis.error_reply('RQ_HANDLED request ' .. id .. ' has already been handled')
end
local owner = redis.call('HGET', KEYS[6], id)
if not owner then
  return redis.error_reply('RQ_NOT_LOCKED request ' .. id .. ' is not locked')
end
if owner ~= ARGV[3] then
  return redis.error_reply('RQ_LOCKED_BY_OTHER request ' .. id .. ' is locked by another client')
end
local from = now
if ARGV[6] == 'expiry' then
  local current = tonumber(redis.call('ZSCORE', KEYS[5], id) or now)
  if current > now then from = current end
end
local expiresAt = from + tonumber(ARGV[2])
redis.call('ZADD', KEYS[5], expiresAt, id)
if ARGV[4] == '1' then
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  redis.call('ZADD', KEYS[3], -seq, id)
end
return expiresAt

--[[
  Releases the caller's lock of one request and makes it available again: at its original queue order, or at the
  head with forefront. Idempotent: a request that is not locked by the caller is left alone.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua)

  ARGV[1] request id
  ARGV[2] clientKey of the caller
  ARGV[3] forefront: '1' puts the request at the head of the queue

  Returns 1 when a lock was released, 0 otherwise.
]]
local id = ARGV[1]
if redis.call('HGET', KEYS[6], id) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
local order = redis.call('ZSCORE', KEYS[3], id)
if not order then return 0 end
if ARGV[3] == '1' then
  order = -redis.call('HINCRBY', KEYS[1], 'seq', 1)
  redis.call('ZADD', KEYS[3], order, id)
end
redis.call('ZADD', KEYS[4], order, id)
return 1

--[[
  Stores a new state of a request. Never fails for a lost lock: Crawlee terminates the crawler when this throws.
  - handled: marks it handled, removes it from the available set and its lock, moves the counters. Idempotent.
  - not handled (a reclaim): makes it available again (original order, or the head with forefront) and releases the
    caller's lock. When another client holds the lock now, only the data is stored and that lock stays.
  - unknown id: the request is inserted (as Crawlee's MemoryStorage does).

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua)

  ARGV[1] request id
  ARGV[2] request JSON
  ARGV[3] handled: '1' when the request has handledAt
  ARGV[4] forefront: '1' puts a reclaimed request at the head of the queue
  ARGV[5] clientKey of the caller
  ARGV[6] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns { wasAlreadyPresent (0|1), wasAlreadyHandled (0|1) }
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[6])
local id, handled, forefront, clientKey = ARGV[1], ARGV[3] == '1', ARGV[4] == '1', ARGV[5]
local present = redis.call('HEXISTS', KEYS[2], id) == 1
local wasHandled = present and (not redis.call('ZSCORE', KEYS[3], id))
redis.call('HSET', KEYS[2], id, ARGV[2])
redis.call('HSETNX', KEYS[1], 'createdAt', now)
redis.call('HSET', KEYS[1], 'modifiedAt', now)

local function newOrder()
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  if forefront then return -seq end
  return seq
end

if not present then
  redis.call('HINCRBY', KEYS[1], 'total', 1)
  if handled then
    redis.call('HINCRBY', KEYS[1], 'handled', 1)
  else
    local order = newOrder()
    redis.call('ZADD', KEYS[3], order, id)
    redis.call('ZADD', KEYS[4], order, id)
    redis.call('HINCRBY', KEYS[1], 'pending', 1)
  end
  return { 0, 0 }
end

if handled then
  if not wasHandled then
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZREM', KEYS[4], id)
    redis.call('ZREM', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
    redis.call('HINCRBY', KEYS[1], 'pending', -1)
    redis.call('HINCRBY', KEYS[1], 'handled', 1)
  end
  return { 1, wasHandled and 1 or 0 }
end

if wasHandled then
  -- Re-opened: pending again at the tail (or head with forefront).
  local order = newOrder()
  redis.call('ZADD', KEYS[3], order, id)
  redis.call('ZADD', KEYS[4], order, id)
  redis.call('HINCRBY', KEYS[1], 'pending', 1)
  redis.call('HINCRBY', KEYS[1], 'handled', -1)
  return { 1, 1 }
end

local owner = redis.call('HGET', KEYS[6], id)
if owner and owner ~= clientKey then return { 1, 0 } end
redis.call('ZREM', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
local order = redis.call('ZSCORE', KEYS[3], id)
if forefront then
  order = newOrder()
  redis.call('ZADD', KEYS[3], order, id)
end
redis.call('ZADD', KEYS[4], order, id)
return { 1, 0 }

-- Where a handled request goes once it leaves KEYS[2] data (data holds only unhandled requests): KEYS[12] done,
-- request id -> its record with handledAt. The one place that knows the handled store, so the handledRequests
-- modes (issue 12: 'request' | 'key' | 'bits') change these three functions and nothing else.

-- Is request `id` handled? O(1).
local function isHandled(id)
  return redis.call('HEXISTS', KEYS[12], id) == 1
end

-- Records request `id` as handled with its record (a second call overwrites the record). O(1).
local function markHandled(id, record)
  redis.call('HSET', KEYS[12], id, record)
end

-- Forgets that request `id` was handled (re-opened, deleted, requeued). Returns true when it was handled. O(1).
local function unmarkHandled(id)
  return redis.call('HDEL', KEYS[12], id) == 1
end

-- The stored record of a handled request, or false. O(1).
local function handledRecord(id)
  return redis.call('HGET', KEYS[12], id)
end

-- How many handled requests the store holds (for counters re-derived after a removal). O(1).
local function handledCount()
  return redis.call('HLEN', KEYS[12])
end

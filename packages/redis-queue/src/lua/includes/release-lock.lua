-- Ends the lock of request `id` (its expiry in KEYS[5] locks and its owner in KEYS[6] owner) and makes it available
-- again (KEYS[4] avail) at its current order in KEYS[3] pending. The caller checks ownership first.
-- Returns the order, or nil when the request is no longer pending (then it is not made available).
local function releaseLock(id)
  redis.call('ZREM', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
  local order = redis.call('ZSCORE', KEYS[3], id)
  if order then redis.call('ZADD', KEYS[4], order, id) end
  return order
end

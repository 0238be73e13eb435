-- Takes request `id`, whose data the caller has just removed from KEYS[2] data, out of every structure: the order
-- sets (KEYS[3] pending, KEYS[4] avail), its lock (KEYS[5] locks, KEYS[6] owner), and moves the counters of
-- KEYS[1] meta (pending or handled, and total) in the same step.
local function unindexRequest(id)
  if redis.call('ZREM', KEYS[3], id) == 1 then
    redis.call('HINCRBY', KEYS[1], 'pending', -1)
  else
    redis.call('HINCRBY', KEYS[1], 'handled', -1)
  end
  redis.call('HINCRBY', KEYS[1], 'total', -1)
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
end

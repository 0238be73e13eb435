-- Takes request `id`, whose data the caller has just removed from KEYS[2] data, out of every structure: the order
-- sets (KEYS[3] pending, KEYS[4] avail), its lock (KEYS[5] locks, KEYS[6] owner), and moves the counters of
-- KEYS[1] meta (pending or handled, and total) in the same step.

-- Re-derives the counters of KEYS[1] meta after entries left the queue, instead of decrementing them: an entry a
-- third party wrote into pending/avail/data without touching meta was never counted, and decrementing for it would
-- drive the counters below the truth (negative pending, handled over total). `pending` is the size of the pending
-- set (which holds every unhandled request, locked ones included); `handled` drops by `handledRemoved`, never
-- below 0; `total` is always pending + handled. O(1).
local function recountAfterRemoval(handledRemoved)
  local pending = redis.call('ZCARD', KEYS[3])
  local handled = tonumber(redis.call('HGET', KEYS[1], 'handled') or '0') - handledRemoved
  if handled < 0 then handled = 0 end
  redis.call('HSET', KEYS[1], 'pending', pending, 'handled', handled, 'total', pending + handled)
end

local function unindexRequest(id)
  local handledRemoved = 0
  if redis.call('ZREM', KEYS[3], id) == 0 then handledRemoved = 1 end
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
  recountAfterRemoval(handledRemoved)
end

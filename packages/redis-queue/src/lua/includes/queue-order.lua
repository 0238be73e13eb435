-- The order of a queue's available requests (layout C of docs/compact-frontier.md), shared by every script that
-- places, moves or removes a request. One order space, as 0.1's `seq`: FIFO requests > 0 increasing, forefront
-- requests < 0 (newest most negative); lower goes first.
--   KEYS[3] fifo   LIST ids, oldest first; the entry at absolute position p (meta `qhead` = position of the head)
--                  has order p + 1; an empty entry is a placeholder that only holds a position
--   KEYS[4] front  LIST "<seq> <id>", newest first; order -seq (meta `fseq` counts them)
--   KEYS[9] back   ZSET id -> order: available requests in neither list (returned, reclaimed, moved)
--   KEYS[10] held  HASH id -> order of a locked request (KEYS[5] locks, KEYS[6] owner), for its return
--   KEYS[11] stale HASH id -> list entries of the id that are no longer its place; while counted, its place is
--                  back or held, never a list (so a list entry of a counted id is always one to skip)
-- A request in KEYS[2] data is in exactly one place: a list entry (not counted stale), back, or held.

-- A new order at the head of the queue (forefront: newer than every forefront request before it).
local function forefrontOrder()
  return -redis.call('HINCRBY', KEYS[1], 'fseq', 1)
end

-- Makes request `id` (just stored in data) available at the tail, or at the head with forefront. O(1).
local function placeNew(id, forefront)
  local stale = redis.call('HEXISTS', KEYS[11], id) == 1
  if forefront then
    local order = forefrontOrder()
    if stale then redis.call('ZADD', KEYS[9], order, id) else redis.call('LPUSH', KEYS[4], (-order) .. ' ' .. id) end
  elseif stale then
    -- A placeholder keeps the position, so the order stays exact: after every FIFO request before it.
    local position = tonumber(redis.call('HGET', KEYS[1], 'qhead') or '0') + redis.call('RPUSH', KEYS[3], '') - 1
    redis.call('ZADD', KEYS[9], position + 1, id)
  else
    redis.call('RPUSH', KEYS[3], id)
  end
end

-- Takes request `id` (in data) out of its place, wherever it is: its lock and held order, back, or its list entry
-- (counted stale, skipped when it reaches the head). Returns true when it was locked. O(log N).
local function unplace(id)
  if redis.call('ZREM', KEYS[5], id) == 1 then
    redis.call('HDEL', KEYS[6], id)
    redis.call('HDEL', KEYS[10], id)
    return true
  end
  redis.call('HDEL', KEYS[6], id)
  if redis.call('HDEL', KEYS[10], id) == 1 then return true end
  if redis.call('ZREM', KEYS[9], id) == 1 then return false end
  -- A polite queue keeps available requests in host queues, never in a list (includes/polite.lua): its lock script
  -- drops a host-queue entry whose request left data, so nothing is counted stale.
  if redis.call('HEXISTS', KEYS[1], 'politeMinDelayMs') == 1 then return false end
  -- In a list: its entry stays (removing it would cost O(N)) and is skipped when it reaches the head.
  redis.call('HINCRBY', KEYS[11], id, 1)
  return false
end

-- Ends the lock of request `id` (KEYS[5] locks, KEYS[6] owner) and makes it available again at its held order,
-- or at `order` when given (a move to the head). The caller checks ownership first. Returns the order, or nil
-- when the request is not held (then nothing is made available). O(log N).
local function releaseLock(id, order)
  redis.call('ZREM', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
  local held = redis.call('HGET', KEYS[10], id)
  if not held then return nil end
  redis.call('HDEL', KEYS[10], id)
  if redis.call('HEXISTS', KEYS[2], id) == 0 then return nil end
  order = order or tonumber(held)
  redis.call('ZADD', KEYS[9], order, id)
  return order
end

-- Re-derives the counters of KEYS[1] meta after entries left the queue, instead of decrementing them: an entry a
-- third party wrote into data without touching meta was never counted, and decrementing for it would drive the
-- counters below the truth (negative pending, handled over total). `pending` is the size of data (which holds
-- every unhandled request, locked ones included); `handled` drops by `handledRemoved`, never below 0; `total` is
-- always pending + handled. O(1).
local function recountAfterRemoval(handledRemoved)
  local pending = redis.call('HLEN', KEYS[2])
  local handled = tonumber(redis.call('HGET', KEYS[1], 'handled') or '0') - handledRemoved
  if handled < 0 then handled = 0 end
  redis.call('HSET', KEYS[1], 'pending', pending, 'handled', handled, 'total', pending + handled)
end

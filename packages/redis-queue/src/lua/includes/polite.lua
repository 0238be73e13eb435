-- Fleet-wide politeness state (docs/politeness.md). On a polite queue an available request's place is its host's
-- queue (or the delayed set), never the fifo / front / back structures of includes/queue-order.lua, and a locked
-- one's order is in KEYS[10] held as on any queue; "pending" is HEXISTS KEYS[2] data. Every key lives under the queue's hash tag, next to KEYS[1]
-- meta (`{tag}:meta` -> `{tag}:p:...`), so one script stays on one Cluster slot; the per-host queues are found by
-- host name at run time, so the keys are derived here rather than passed:
--   p:hq:<host>  ZSET  request id -> queue order: the host's available requests (forefront newest first, then FIFO)
--   p:hosts      ZSET  host -> next allowed time (ms, Redis time): the schedule; holds exactly the hosts that have
--                      available requests and a free concurrency slot
--   p:next       HASH  host -> next allowed time (ms): max(hand-out, end of a request) + minDelay, or a backoff
--   p:flight     ZSET  host -> requests of the host locked now (entries at 0 are removed; a sorted set, so the
--                      stats read the busiest hosts and the hosts at their limit without a whole-hash read)
--   p:hostof     HASH  request id -> '<order> <host>' of a locked or delayed request: the host whose slot its lock
--                      holds (so an expired lock frees it) and the order it returns at (bounded by locked + delayed)
--   p:delayed    ZSET  request id -> not-before (ms): reclaimed requests waiting for their retry backoff
-- meta fields politeMinDelayMs / politeMaxConc (0: unlimited) are set once, by create-queue.lua.
--- @include "meta-number"
--- @include "queue-gone"
local PK = string.sub(KEYS[1], 1, -5) .. 'p:'
local P_HOSTS, P_NEXT, P_FLIGHT, P_HOSTOF, P_DELAYED = PK .. 'hosts', PK .. 'next', PK .. 'flight', PK .. 'hostof', PK .. 'delayed'

local function hostQueue(host)
  return PK .. 'hq:' .. host
end

-- The queue's politeness: minDelayMs, maxConcurrency (0: unlimited), or nil when it was created without.
local function politeConfig()
  local c = redis.call('HMGET', KEYS[1], 'politeMinDelayMs', 'politeMaxConc')
  if not c[1] then return nil end
  return metaNumber('politeMinDelayMs', c[1]), metaNumber('politeMaxConc', c[2]) or 0
end

-- The refusal of a polite call on a queue without politeness settings: either the queue was created without
-- politeness, or its metadata is gone altogether (dropped, or a Redis that came back without its data), which a
-- polite client must not mistake for a settings mismatch.
local function politeRefusal()
  if redis.call('EXISTS', KEYS[1]) == 0 then
    return queueGone()
  end
  return redis.error_reply(ERR_POLITENESS .. ' the queue was created without politeness')
end

-- The politeness argument an add/update call passes last (first byte NUL, then JSON), or nil: an unpolite call.
local function politeArg()
  local last = ARGV[#ARGV]
  if last and string.byte(last, 1) == 0 then return cjson.decode(string.sub(last, 2)) end
  return nil
end

-- A new order for a request made available on a polite queue: forefront ones share the `fseq` order space of
-- includes/queue-order.lua (newest most negative), FIFO ones count meta `pseq` (a polite queue keeps no fifo list,
-- whose positions give the order on an unpolite one).
local function politeOrder(forefront)
  if forefront then return -redis.call('HINCRBY', KEYS[1], 'fseq', 1) end
  return redis.call('HINCRBY', KEYS[1], 'pseq', 1)
end

-- Keeps the schedule invariant for one host: on it (at its next allowed time) iff it has available requests and a
-- free slot.
local function politeSchedule(host, maxConc)
  local free = maxConc == 0 or tonumber(redis.call('ZSCORE', P_FLIGHT, host) or '0') < maxConc
  if free and redis.call('EXISTS', hostQueue(host)) == 1 then
    redis.call('ZADD', P_HOSTS, tonumber(redis.call('HGET', P_NEXT, host) or '0'), host)
  else
    redis.call('ZREM', P_HOSTS, host)
  end
end

-- Request `id` becomes available in its host's queue at `order`.
local function politeMakeAvailable(id, order, host, maxConc)
  redis.call('ZADD', hostQueue(host), order, id)
  if redis.call('ZSCORE', P_HOSTS, host) then return end
  politeSchedule(host, maxConc)
end

-- Request `id` (not locked) is no longer available: out of its host's queue or the delayed set.
local function politeMakeUnavailable(id, host, maxConc)
  if redis.call('ZREM', P_DELAYED, id) == 1 then redis.call('HDEL', P_HOSTOF, id) end
  if host ~= '' and redis.call('ZREM', hostQueue(host), id) == 1 then politeSchedule(host, maxConc) end
end

local function splitHostOf(v)
  local sp = string.find(v, ' ', 1, true)
  return tonumber(string.sub(v, 1, sp - 1)), string.sub(v, sp + 1)
end

-- The lock of request `id` ended at `now` (handled, reclaimed, released, expired, dropped): its host gets its slot
-- back and may not be asked again before now + minDelay (the gap counts from the end of the previous request as
-- the site sees it, as Heritrix and Nutch do). Returns the order and host kept with the lock, or nil when the
-- request held no polite lock. The caller removes the lock itself and re-schedules the host.
local function politeEndLock(id, now, minDelay)
  local v = redis.call('HGET', P_HOSTOF, id)
  if not v then return nil end
  redis.call('HDEL', P_HOSTOF, id)
  local order, host = splitHostOf(v)
  if tonumber(redis.call('ZINCRBY', P_FLIGHT, -1, host)) <= 0 then redis.call('ZREM', P_FLIGHT, host) end
  local nextAt = tonumber(redis.call('HGET', P_NEXT, host) or '0')
  if now + minDelay > nextAt then redis.call('HSET', P_NEXT, host, now + minDelay) end
  return order, host
end

-- Releases the polite lock of request `id` (the caller checked the owner): back to its host's queue, or to the
-- delayed set for `delayMs` (a retry's not-before), at the order `order` (nil: its current queue order).
-- Returns true when `id` held a polite lock (else the caller's unpolite release applies).
local function politeReleaseLock(id, now, delayMs, order)
  local minDelay, maxConc = politeConfig()
  if not minDelay then return false end
  local keptOrder, host = politeEndLock(id, now, minDelay)
  if not host then return false end
  redis.call('ZREM', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
  -- The held order (KEYS[10], includes/queue-order.lua) wins over the one kept with the lock: a prolong with
  -- forefront moved it to the head there.
  local heldOrder = redis.call('HGET', KEYS[10], id)
  redis.call('HDEL', KEYS[10], id)
  order = order or tonumber(heldOrder) or keptOrder
  if redis.call('HEXISTS', KEYS[2], id) == 0 then
    politeSchedule(host, maxConc)
  elseif delayMs > 0 then
    redis.call('ZADD', P_DELAYED, now + delayMs, id)
    redis.call('HSET', P_HOSTOF, id, order .. ' ' .. host)
    politeSchedule(host, maxConc)
  else
    politeMakeAvailable(id, order, host, maxConc)
  end
  return true
end

-- Request `id` leaves the queue (deleted, dead-lettered): frees its host's slot when it was locked, drops it from
-- the delayed set. Its entry in a host queue, if any, is dropped by the lock script (not in data any more).
local function politeForget(id, now)
  if redis.call('HEXISTS', P_HOSTOF, id) == 0 then return end
  local minDelay, maxConc = politeConfig()
  if redis.call('ZREM', P_DELAYED, id) == 1 then
    redis.call('HDEL', P_HOSTOF, id)
    return
  end
  local _, host = politeEndLock(id, now, minDelay or 0)
  if host then politeSchedule(host, maxConc or 0) end
end

-- Deletes every politeness key of the queue (purge, drop). O(hosts): the host queues are those of the scheduled
-- hosts and of the hosts in flight (a host with available requests is one or the other), popped 1000 at a time.
local function politePurge()
  for _, set in ipairs({ P_HOSTS, P_FLIGHT }) do
    while true do
      local popped = redis.call('ZPOPMIN', set, 1000)
      if #popped == 0 then break end
      for i = 1, #popped, 2 do redis.call('UNLINK', hostQueue(popped[i])) end
    end
  end
  redis.call('UNLINK', P_HOSTS, P_NEXT, P_FLIGHT, P_HOSTOF, P_DELAYED)
end

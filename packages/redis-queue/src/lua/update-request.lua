--[[
  Stores new states of one or more requests: every updateRequest one client makes in one event-loop turn arrives as
  one call (Crawlee marks each request handled with one, so this runs once per request). Items are applied in order,
  each exactly as if it were alone. Never fails for a lost lock: Crawlee terminates the crawler when this throws.
  - handled: marks it handled, removes it from the available set and its lock, moves it out of data into the handled
    store of the queue's mode (includes/handled-store.lua), moves the counters. Idempotent.
  - not handled (a reclaim): makes it available again (original order, or the head with forefront) and releases the
    caller's lock. When another client holds the lock now, only the data is stored and that lock stays.
  - unknown id: the request is inserted (as Crawlee's MemoryStorage does).
  - failed (marked handled from Crawlee's error handler after its last retry): also recorded in the failed index
    (KEYS[13], ZADD: O(log N)), in the same step as the handled mark. With the 'forget' mode the request's data moves
    to the failed data hash (KEYS[14]) and leaves the queue (total and pending move, handled does not), so a later
    add of the same uniqueKey is accepted; the failed index still lists it for requeueFailed.

  KEYS[1..12] the queue's keys (see add-requests.lua)
  KEYS[13] failed index (ZSET id -> failedAt ms, Redis time), KEYS[14] failed data (HASH id -> record, 'forget' mode)
  KEYS[15] kept failed data (HASH id -> record of a failed request kept as handled, in the 'key' and 'bits' modes,
  which keep no request of their own)

  ARGV[1] clientKey of the caller
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3] failed-request mode: 'keep' (stays handled, so seen) or 'forget' (leaves the queue)
  then four arguments per request:
    id
    request record (format 2)
    handled: '1' when the request has handledAt, '2' when it has handledAt and failed for good
    forefront: '1' puts a reclaimed request at the head of the queue

  ARGV[last] only on a queue created with politeness: NUL then a JSON array with, per request, [host key, not-before
    delay in ms of a reclaim (retry backoff)] (includes/polite-update.lua)

  Returns two entries per request, in order: wasAlreadyPresent (0|1), wasAlreadyHandled (0|1).
  Error ERR_POLITENESS when a polite call meets a queue created without politeness (nothing written).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "request-state"
--- @include "polite"
--- @include "polite-update"
--- @include "batch-call"
--- @include "queue-gone"
local now = redisNowMs(ARGV[2])
local clientKey = ARGV[1]
-- The polite check before any write: writing first (the format below) would re-create the metadata of a queue that
-- was wiped (FLUSHALL, a Redis back without its data) without its politeness, an error reply keeps what was written,
-- and every polite call after it would read as a politeness mismatch instead of RQ_QUEUE_MISSING.
local politeErr = politeUpdateBegin()
if politeErr then return politeErr end
-- A queue without meta is gone (dropped, or a Redis back without its data): never re-created here
-- (includes/queue-gone.lua). createdAt (read with the handled store's parameters) is in every meta a script wrote,
-- so the EXISTS runs only when it is missing.
local metaRead = hsLoad()
if not metaRead.createdAt and redis.call('EXISTS', KEYS[1]) == 0 then return queueGone() end
local forgetFailed = ARGV[3] == 'forget'
local out = {}
-- Pending -> handled moves of this batch, added to the counters once at the end.
local handledNow = 0

-- Records a request that failed for good; in 'forget' mode keeps its record in the failed data instead of the
-- handled store. Returns true when the request left the queue (the caller moves total instead of handled).
local function recordFailed(id, record)
  redis.call('ZADD', KEYS[13], now, id)
  if not forgetFailed then
    -- Kept: handled, and its record stays readable for failed() / requeueFailed ('request' mode keeps it in done).
    if handledMode() ~= 'request' then redis.call('HSET', KEYS[15], id, record) end
    return false
  end
  redis.call('HSET', KEYS[14], id, record)
  return true
end

-- Request `id` (just stored in data) becomes available: its host's queue on a polite call, else the lists.
local function makeAvailable(id, forefront, k)
  if not politeAvailable(id, politeOrder(forefront), k) then placeNew(id, forefront) end
end

-- The common item, a pending request marked handled (Crawlee's markRequestHandled), is applied for the whole batch
-- with one variadic command per structure: HMGET data tells which items are pending, ZMSCORE locks which of them are
-- locked, and their lock, owner, held order and data go in one ZREM / HDEL each. Only on an unpolite call whose ids
-- are distinct (so no item can see another's effect); every other item runs the per-item path below, which reads
-- its state itself (the batch touched other ids only).
local last = politeUpdateLastArg()
local fast, allFast = {}, true
if not politeItems then
  local ids, seen, distinct = {}, {}, true
  for i = 4, last, 4 do
    local id = ARGV[i]
    if seen[id] then distinct = false; break end
    seen[id] = true
    ids[#ids + 1] = id
  end
  if distinct and #ids > 0 then
    local inData = batchCall('HMGET', KEYS[2], ids)
    local g, gi = {}, {}
    for k = 1, #ids do
      if inData[k] and ARGV[4 * k + 2] == '1' then g[#g + 1] = ids[k]; gi[#gi + 1] = k end
    end
    if #g > 0 then
      local scores = batchCall('ZMSCORE', KEYS[5], g)
      local locked, records = {}, {}
      for j = 1, #g do
        if scores[j] then locked[#locked + 1] = g[j] else unplace(g[j]) end
        records[j] = ARGV[4 * gi[j] + 1]
        fast[gi[j]] = true
      end
      if #locked > 0 then
        batchCall('ZREM', KEYS[5], locked)
        batchCall('HDEL', KEYS[6], locked)
        batchCall('HDEL', KEYS[10], locked)
      end
      batchCall('HDEL', KEYS[2], g)
      markHandledMany(g, records)
      handledNow = handledNow + #g
      for j = 1, #g do
        out[2 * gi[j] - 1] = 1
        out[2 * gi[j]] = 0
      end
    end
  end
end

for i = 4, last, 4 do
  local k = (i - 4) / 4 + 1
  if not fast[k] then
    allFast = false
    local id, record, handled, forefront = ARGV[i], ARGV[i + 1], ARGV[i + 2] ~= '0', ARGV[i + 3] == '1'
    local failed = ARGV[i + 2] == '2'
    local state = requestState(id)
    if state == nil and handled and handledMode() == 'store' then
      -- 'store' mode keeps nothing of a handled request (its dedup store does): an id the queue does not hold is
      -- taken as handled already, so marking it again (a retried call) moves no counter.
      out[2 * k - 1] = 1
      out[2 * k] = 1
    elseif state == nil then
      -- Unknown: inserted (as Crawlee's MemoryStorage does).
      if handled then
        if not (failed and recordFailed(id, record)) then
          markHandled(id, record)
          redis.call('HINCRBY', KEYS[1], 'total', 1)
          redis.call('HINCRBY', KEYS[1], 'handled', 1)
        end
      else
        redis.call('HSET', KEYS[2], id, record)
        makeAvailable(id, forefront, k)
        redis.call('HINCRBY', KEYS[1], 'total', 1)
        redis.call('HINCRBY', KEYS[1], 'pending', 1)
      end
      out[2 * k - 1] = 0
      out[2 * k] = 0
    elseif handled and state == 'pending' then
      -- Pending until now: out of its place (its lock, back, its list entry, or its host's queue) and out of data.
      if unplace(id) then politeLockEnded(id, now) else politeUnavailable(id, k) end
      redis.call('HDEL', KEYS[2], id)
      if failed and recordFailed(id, record) then
        redis.call('HINCRBY', KEYS[1], 'pending', -1)
        redis.call('HINCRBY', KEYS[1], 'total', -1)
      else
        -- The handled branch: where a handled request goes (includes/handled-store.lua).
        markHandled(id, record)
        handledNow = handledNow + 1
      end
      out[2 * k - 1] = 1
      out[2 * k] = 0
    elseif handled then
      -- Handled again: the new state is stored ('request' mode), nothing moves.
      markHandled(id, record)
      out[2 * k - 1] = 1
      out[2 * k] = 1
    elseif state == 'handled' then
      -- Re-opened: pending again at the tail (or head with forefront), and no longer failed. In 'bits' mode its bits
      -- stay set (they are shared); harmless, every check reads data first.
      unmarkHandled(id)
      redis.call('ZREM', KEYS[13], id)
      redis.call('HDEL', KEYS[15], id)
      redis.call('HSET', KEYS[2], id, record)
      makeAvailable(id, forefront, k)
      redis.call('HINCRBY', KEYS[1], 'pending', 1)
      redis.call('HINCRBY', KEYS[1], 'handled', -1)
      out[2 * k - 1] = 1
      out[2 * k] = 1
    else
      -- A reclaim: the new state is stored; the caller's lock (or no lock) ends, back at its place or at the head.
      redis.call('HSET', KEYS[2], id, record)
      local owner = redis.call('HGET', KEYS[6], id)
      if (owner == clientKey or not owner) and politeReclaim(id, now, k, owner, forefront) then
        -- Polite: back to its host's queue (after its retry delay), see includes/polite-update.lua.
      elseif owner == clientKey then
        local order = nil
        if forefront then order = forefrontOrder() end
        releaseLock(id, order)
      elseif not owner and forefront then
        -- Available (or a lock that lost its owner entry): moved to the head.
        unplace(id)
        redis.call('ZADD', KEYS[9], forefrontOrder(), id)
      end
      out[2 * k - 1] = 1
      out[2 * k] = 0
    end
  end
end

-- meta in one HSET: modifiedAt, createdAt when absent, the handled store's parameters, and the counters when only
-- the batched path moved them (the per-item path moves them with HINCRBY; a counter that is not an integer is left
-- to HINCRBY too, which refuses it as before).
local metaArgs = { 'modifiedAt', now }
if not metaRead.createdAt then metaArgs[#metaArgs + 1] = 'createdAt'; metaArgs[#metaArgs + 1] = now end
handledSaveArgs(metaArgs)
local pendingWas, handledWas = tonumber(metaRead.pending or '0'), tonumber(metaRead.handled or '0')
-- (Below 1e13, as a Lua number an integer is written out in full, never in exponent form.)
local function plainInteger(x) return x ~= nil and x == math.floor(x) and math.abs(x) < 1e13 end
local exact = allFast and plainInteger(pendingWas) and plainInteger(handledWas)
if handledNow > 0 and exact then
  metaArgs[#metaArgs + 1] = 'pending'; metaArgs[#metaArgs + 1] = pendingWas - handledNow
  metaArgs[#metaArgs + 1] = 'handled'; metaArgs[#metaArgs + 1] = handledWas + handledNow
elseif handledNow > 0 then
  redis.call('HINCRBY', KEYS[1], 'pending', -handledNow)
  redis.call('HINCRBY', KEYS[1], 'handled', handledNow)
end
redis.call('HSET', KEYS[1], unpack(metaArgs))
return out

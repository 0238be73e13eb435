--[[
  Stores new states of one or more requests: every updateRequest one client makes in one event-loop turn arrives as
  one call (Crawlee marks each request handled with one, so this runs once per request). Items are applied in order,
  each exactly as if it were alone. Never fails for a lost lock: Crawlee terminates the crawler when this throws.
  - handled: marks it handled, removes it from the available set and its lock, moves the counters. Idempotent.
  - not handled (a reclaim): makes it available again (original order, or the head with forefront) and releases the
    caller's lock. When another client holds the lock now, only the data is stored and that lock stays.
  - unknown id: the request is inserted (as Crawlee's MemoryStorage does).
  - failed (marked handled from Crawlee's error handler after its last retry): also recorded in the failed index
    (KEYS[13], ZADD: O(log N)), in the same step as the handled mark. With the 'forget' mode the request's data moves
    to the failed data hash (KEYS[14]) and leaves the queue (total and pending move, handled does not), so a later
    add of the same uniqueKey is accepted; the failed index still lists it for requeueFailed.

  KEYS[1..12] the queue's keys (see add-requests.lua)
  KEYS[13] failed index (ZSET id -> failedAt ms, Redis time), KEYS[14] failed data (HASH id -> record, 'forget' mode)

  ARGV[1] clientKey of the caller
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3] failed-request mode: 'keep' (stays handled, so seen) or 'forget' (leaves the queue)
  then four arguments per request:
    id
    request record (format 2)
    handled: '1' when the request has handledAt, '2' when it has handledAt and failed for good
    forefront: '1' puts a reclaimed request at the head of the queue

  Returns two entries per request, in order: wasAlreadyPresent (0|1), wasAlreadyHandled (0|1).
]]
--- @include "redis-time"
--- @include "queue-order"
--- @include "handled-store"
local now = redisNowMs(ARGV[2])
local clientKey = ARGV[1]
-- A queue this script creates is format 2; a 0.1 queue (meta without format) keeps waiting for its migration.
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'format', 2) end
local forgetFailed = ARGV[3] == 'forget'
local out = {}
-- Pending -> handled moves of this batch, added to the counters once at the end.
local handledNow = 0

-- Records a request that failed for good; in 'forget' mode keeps its record in the failed data instead of the
-- handled store. Returns true when the request left the queue (the caller moves total instead of handled).
local function recordFailed(id, record)
  redis.call('ZADD', KEYS[13], now, id)
  if not forgetFailed then return false end
  redis.call('HSET', KEYS[14], id, record)
  return true
end

for i = 4, #ARGV, 4 do
  local id, record, handled, forefront = ARGV[i], ARGV[i + 1], ARGV[i + 2] ~= '0', ARGV[i + 3] == '1'
  local failed = ARGV[i + 2] == '2'
  local pending = redis.call('HEXISTS', KEYS[2], id) == 1
  -- The one "already handled?" check of the update path (includes/handled-store.lua).
  local wasHandled = (not pending) and isHandled(id)
  if not pending and not wasHandled then
    -- Unknown: inserted (as Crawlee's MemoryStorage does).
    if handled then
      if not (failed and recordFailed(id, record)) then
        markHandled(id, record)
        redis.call('HINCRBY', KEYS[1], 'total', 1)
        redis.call('HINCRBY', KEYS[1], 'handled', 1)
      end
    else
      redis.call('HSET', KEYS[2], id, record)
      placeNew(id, forefront)
      redis.call('HINCRBY', KEYS[1], 'total', 1)
      redis.call('HINCRBY', KEYS[1], 'pending', 1)
    end
    out[#out + 1] = 0
    out[#out + 1] = 0
  elseif handled and pending then
    -- Pending until now: out of its place (its lock, back, or its list entry) and out of data.
    unplace(id)
    redis.call('HDEL', KEYS[2], id)
    if failed and recordFailed(id, record) then
      redis.call('HINCRBY', KEYS[1], 'pending', -1)
      redis.call('HINCRBY', KEYS[1], 'total', -1)
    else
      -- The handled branch: where a handled request goes (includes/handled-store.lua).
      markHandled(id, record)
      handledNow = handledNow + 1
    end
    out[#out + 1] = 1
    out[#out + 1] = 0
  elseif handled then
    -- Handled again: the new state is stored, nothing moves.
    markHandled(id, record)
    out[#out + 1] = 1
    out[#out + 1] = 1
  elseif wasHandled then
    -- Re-opened: pending again at the tail (or head with forefront), and no longer failed.
    unmarkHandled(id)
    redis.call('ZREM', KEYS[13], id)
    redis.call('HSET', KEYS[2], id, record)
    placeNew(id, forefront)
    redis.call('HINCRBY', KEYS[1], 'pending', 1)
    redis.call('HINCRBY', KEYS[1], 'handled', -1)
    out[#out + 1] = 1
    out[#out + 1] = 1
  else
    -- A reclaim: the new state is stored; the caller's lock (or no lock) ends, back at its place or at the head.
    redis.call('HSET', KEYS[2], id, record)
    local owner = redis.call('HGET', KEYS[6], id)
    if owner == clientKey then
      local order = nil
      if forefront then order = forefrontOrder() end
      releaseLock(id, order)
    elseif not owner and forefront then
      -- Available (or a lock that lost its owner entry): moved to the head.
      unplace(id)
      redis.call('ZADD', KEYS[9], forefrontOrder(), id)
    end
    out[#out + 1] = 1
    out[#out + 1] = 0
  end
end

if handledNow > 0 then
  redis.call('HINCRBY', KEYS[1], 'pending', -handledNow)
  redis.call('HINCRBY', KEYS[1], 'handled', handledNow)
end
redis.call('HSETNX', KEYS[1], 'createdAt', now)
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return out

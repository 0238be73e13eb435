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
    (KEYS[9], ZADD: O(log N)), in the same step as the handled mark. With the 'forget' mode the request's data moves
    to the failed data hash (KEYS[10]) and leaves the queue (total and pending move, handled does not), so a later
    add of the same uniqueKey is accepted; the failed index still lists it for requeueFailed.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner (see add-requests.lua)
  KEYS[7], KEYS[8] unused here (dead, deadinfo: the queue's eight keys come first)
  KEYS[9] failed index (ZSET id -> failedAt ms, Redis time), KEYS[10] failed data (HASH id -> JSON, 'forget' mode),
  KEYS[11] kept failed data (HASH id -> JSON of a failed request kept as handled, in the 'key' and 'bits' modes,
  which keep no request of their own)

  ARGV[1] clientKey of the caller
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3] failed-request mode: 'keep' (stays handled, so seen) or 'forget' (leaves the queue)
  then four arguments per request:
    id
    request JSON
    handled: '1' when the request has handledAt, '2' when it has handledAt and failed for good
    forefront: '1' puts a reclaimed request at the head of the queue

  ARGV[last] only on a queue created with politeness: NUL then a JSON array with, per request, [host key, not-before
    delay in ms of a reclaim (retry backoff)] (includes/polite-update.lua)

  Returns two entries per request, in order: wasAlreadyPresent (0|1), wasAlreadyHandled (0|1).
  Error ERR_POLITENESS when a polite call meets a queue created without politeness (nothing written).
]]
--- @include "redis-time"
--- @include "release-lock"
--- @include "reply-codes"
--- @include "request-state"
--- @include "polite"
--- @include "polite-update"
local now = redisNowMs(ARGV[2])
local clientKey = ARGV[1]
local forgetFailed = ARGV[3] == 'forget'
local out = {}
-- Pending -> handled moves of this batch, added to the counters once at the end.
local handledNow = 0

-- Records a request that failed for good; in 'forget' mode moves its data out of the queue.
-- Returns true when the request left the queue (the caller moves total instead of handled).
local function recordFailed(id, json)
  redis.call('ZADD', KEYS[9], now, id)
  if not forgetFailed then
    -- Kept: handled, and its JSON stays readable for failed() / requeueFailed ('request' mode keeps it in done).
    if handledMode() ~= 'request' then redis.call('HSET', KEYS[11], id, json) end
    return false
  end
  redis.call('HSET', KEYS[10], id, json)
  return true
end

local function newOrder(forefront)
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  if forefront then return -seq end
  return seq
end

local politeErr = politeUpdateBegin()
if politeErr then return politeErr end
for i = 4, politeUpdateLastArg(), 4 do
  local id, json, handled, forefront = ARGV[i], ARGV[i + 1], ARGV[i + 2] ~= '0', ARGV[i + 3] == '1'
  local k = (i - 4) / 4 + 1
  local failed = ARGV[i + 2] == '2'
  local state = requestState(id)
  if state == nil then
    -- Unknown: inserted, as Crawlee's MemoryStorage does.
    if handled then
      if not (failed and recordFailed(id, json)) then
        markHandled(id, json)
        redis.call('HINCRBY', KEYS[1], 'total', 1)
        redis.call('HINCRBY', KEYS[1], 'handled', 1)
      end
    else
      redis.call('HSET', KEYS[2], id, json)
      redis.call('HINCRBY', KEYS[1], 'total', 1)
      local order = newOrder(forefront)
      redis.call('ZADD', KEYS[3], order, id)
      if not politeAvailable(id, order, k) then redis.call('ZADD', KEYS[4], order, id) end
      redis.call('HINCRBY', KEYS[1], 'pending', 1)
    end
    out[#out + 1] = 0
    out[#out + 1] = 0
  elseif handled then
    if state == 'pending' then
      redis.call('ZREM', KEYS[3], id)
      -- A pending request is either locked (with an owner entry) or available, never both.
      if redis.call('ZREM', KEYS[5], id) == 1 then
        redis.call('HDEL', KEYS[6], id)
        politeLockEnded(id, now)
      elseif not politeUnavailable(id, k) then
        redis.call('ZREM', KEYS[4], id)
      end
      -- Handled requests leave data for the handled store of the queue's mode.
      redis.call('HDEL', KEYS[2], id)
      if failed and recordFailed(id, json) then
        redis.call('HINCRBY', KEYS[1], 'pending', -1)
        redis.call('HINCRBY', KEYS[1], 'total', -1)
      else
        markHandled(id, json)
        handledNow = handledNow + 1
      end
      out[#out + 1] = 1
      out[#out + 1] = 0
    else
      out[#out + 1] = 1
      out[#out + 1] = 1
    end
  elseif state == 'pending' then
    redis.call('HSET', KEYS[2], id, json)
    local owner = redis.call('HGET', KEYS[6], id)
    if not owner or owner == clientKey then
      if forefront then redis.call('ZADD', KEYS[3], newOrder(true), id) end
      if not politeReclaim(id, now, k, owner) then releaseLock(id) end
    end
    out[#out + 1] = 1
    out[#out + 1] = 0
  else
    -- Re-opened: pending again at the tail (or head with forefront), and no longer failed. In 'bits' mode its bits
    -- stay set (they are shared); harmless, every check reads data first.
    redis.call('ZREM', KEYS[9], id)
    redis.call('HDEL', KEYS[11], id)
    if state == 'handled' then unmarkHandled(id) end
    redis.call('HSET', KEYS[2], id, json)
    local order = newOrder(forefront)
    redis.call('ZADD', KEYS[3], order, id)
    if not politeAvailable(id, order, k) then redis.call('ZADD', KEYS[4], order, id) end
    redis.call('HINCRBY', KEYS[1], 'pending', 1)
    redis.call('HINCRBY', KEYS[1], 'handled', -1)
    out[#out + 1] = 1
    out[#out + 1] = 1
  end
end

handledSave()
if handledNow > 0 then
  redis.call('HINCRBY', KEYS[1], 'pending', -handledNow)
  redis.call('HINCRBY', KEYS[1], 'handled', handledNow)
end
redis.call('HSETNX', KEYS[1], 'createdAt', now)
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return out

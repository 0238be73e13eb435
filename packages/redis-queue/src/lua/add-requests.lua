--[[
  The one add path of a request queue: adds a batch of requests, deduplicated by request id (Crawlee's
  getRequestId(uniqueKey)), optionally through an enqueue filter plan (docs/enqueue-filter-seam.md), all in one atomic
  step. Every way a request enters the queue runs this script: addRequest / batchAddRequests, and the start-URL feed
  (scrapy-redis `<name>:start_urls`), whose items get the same filter ops as any other request.

  Feed step (optional, ARGV[4] ~= FEED_STEP_NONE): the entries are items read from the left of a feed list. In check mode (FEED_STEP_CHECK)
  the script first verifies that the feed still starts with exactly these raw items and trims them in the same step,
  so no item is lost or taken twice; in popped mode (FEED_STEP_POPPED) the caller already popped them (feed on another Cluster
  slot). In member mode (FEED_STEP_SREM for a set feed, FEED_STEP_ZREM for a sorted-set feed) the entries are members
  the caller read (SRANDMEMBER / ZREVRANGE); each is removed here and only an entry whose removal succeeded is
  committed, so of two workers that read the same member exactly one enqueues it (the other gets ADD_FEED_TAKEN for
  it, and its filter op is not applied). Feed items that could not be parsed become dead letters with the reason.

  KEYS[1] meta      HASH  queue metadata and counters (total, pending, handled, fseq, qhead, deadSeq, ...)
  KEYS[2] data      HASH  request id -> format-2 record (src/core/record-format.ts), unhandled requests only
  KEYS[3] fifo      LIST  ids of FIFO requests, oldest first (includes/queue-order.lua: the order of a queue)
  KEYS[4] front     LIST  "<seq> <id>" of forefront requests, newest first
  KEYS[5] locks     ZSET  request id -> lock expiry (ms, Redis time)
  KEYS[6] owner     HASH  request id -> clientKey of the lock owner
  KEYS[7] dead      HASH  dead-letter id -> raw bytes
  KEYS[8] deadinfo  HASH  dead-letter id -> JSON {reason, source, at}
  KEYS[9] back      ZSET  request id -> order, available requests in neither list (returned, reclaimed, moved)
  KEYS[10] held     HASH  request id -> order of a locked request
  KEYS[11] stale    HASH  request id -> list entries of it that are no longer its place
  KEYS[12] done     HASH  request id -> record of a handled request (includes/handled-store.lua)
  KEYS[13..] keys of the enqueue filter plan (plan.keys[i] is KEYS[13 + i]); in check and member modes the feed key
            comes last, after the plan keys

  A queue created with handledRequests 'store' refuses (nothing written) an add of requests
  without a plan (ERR_STORE_REQUIRED): its dedup store is its record of handled requests.

  ARGV[1] forefront: '1' puts new requests at the head (newest forefront first), '0' at the tail
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3] enqueue filter plan as JSON, '' when no filter is attached (ops[i] belongs to the i-th request entry)
  ARGV[4] feed step (reply-codes.json feedStep): FEED_STEP_NONE, FEED_STEP_CHECK (check and trim the feed list),
          FEED_STEP_POPPED (items already popped), FEED_STEP_SREM / FEED_STEP_ZREM (remove each member, commit the
          ones removed)
  ARGV[5..] without a feed step, triples: request id, request record, handled ('1' when it arrives already handled);
            with a feed step, quadruples: raw item bytes, kind ('r' request | 'd' dead letter), request id (for 'd':
            '' for the next `feed-<n>`, or the dead letter's own id, written only if absent), request record (for
            'r') or reason (for 'd')
  ARGV[last] only on a queue created with politeness: NUL then a JSON array with the host key of each entry ('' for
          'd'); new requests go to their host's queue (includes/polite.lua) instead of the fifo / front lists, with
          an order from meta `pseq` (FIFO) or `fseq` (forefront), so a polite queue's lists stay empty

  Returns FEED_HEAD_CHANGED when the feed head changed (nothing done; the caller retries), else one code per entry
  (src/lua/reply-codes.json): ADD_ADDED, ADD_PRESENT, ADD_HANDLED (already present and handled), ADD_FILTERED
  (rejected by the filter), ADD_DEAD_LETTERED (feed item that could not be read), ADD_FEED_TAKEN (member mode: another
  worker removed this member first; nothing done for it). Errors: ERR_BAD_PLAN; ERR_POLITENESS when the call's and
  the queue's politeness differ (nothing written).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "bloom-bits"
--- @include "queue-order"
--- @include "polite"
--- @include "request-state"
--- @include "batch-call"
--- @include "queue-gone"
local now = redisNowMs(ARGV[2])
local forefront = ARGV[1] == '1'
local plan = nil
if ARGV[3] ~= '' then plan = cjson.decode(ARGV[3]) end
local feedStep = tonumber(ARGV[4])
local width = 3
if feedStep ~= FEED_STEP_NONE then width = 4 end
-- Politeness: one clearly separated branch (see includes/polite.lua); without it nothing below changes.
local politeHosts, politeMaxConc = politeArg(), 0
local nArgs = #ARGV
if politeHosts then
  nArgs = nArgs - 1
  local minDelay, maxConc = politeConfig()
  if not minDelay then return politeRefusal() end
  politeMaxConc = maxConc
elseif redis.call('HEXISTS', KEYS[1], 'politeMinDelayMs') == 1 then
  return redis.error_reply(ERR_POLITENESS .. ' the queue was created with politeness')
end
local n = (nArgs - 4) / width

-- A 'store' queue keeps no record of its handled requests: the attached dedup store is that record, so an add of a
-- request without the store's op could enqueue a handled request again. Refused before anything is written.
if plan == nil and handledMode() == 'store' then
  for i = 1, n do
    if width == 3 or ARGV[4 + 4 * (i - 1) + 2] == 'r' then
      return redis.error_reply(ERR_STORE_REQUIRED .. ' the queue keeps its handled requests in its dedup store (handledRequests store), and this add has no dedup store attached')
    end
  end
end

if redis.call('EXISTS', KEYS[1]) == 0 then return queueGone() end

if feedStep == FEED_STEP_CHECK then
  local feedKey = KEYS[#KEYS]
  local head = redis.call('LRANGE', feedKey, 0, n - 1)
  if #head ~= n then return FEED_HEAD_CHANGED end
  for i = 1, n do
    if head[i] ~= ARGV[4 + 4 * (i - 1) + 1] then return FEED_HEAD_CHANGED end
  end
  redis.call('LTRIM', feedKey, n, -1)
end

-- Evaluates one filter op; returns true when the store saw the key for the first time.
local function applyOp(op)
  local key = KEYS[13 + op.key]
  if op.type == 'bits' then
    return bloomCheckAndSet(key, op.offsets)
  elseif op.type == 'member' then
    return redis.call('SADD', key, op.member) == 1
  end
  return redis.error_reply(ERR_BAD_PLAN .. ' unknown op type ' .. tostring(op.type))
end

-- What the batch needs to know, read with one variadic command per structure (not one per request): which ids are
-- pending (data), handled (the handled store) or counted stale (a list entry to skip, includes/queue-order.lua).
-- What this call itself adds is kept in `added`, so a second entry of one id reads as it would one by one.
local ids = {}
for i = 1, n do
  local base = 4 + width * (i - 1)
  if width == 3 then ids[#ids + 1] = ARGV[base + 1] elseif ARGV[base + 2] == 'r' then ids[#ids + 1] = ARGV[base + 3] end
end
local pendingNow, unknown = {}, {}
local v = batchCall('HMGET', KEYS[2], ids)
if v then
  for i = 1, #ids do
    if v[i] then pendingNow[ids[i]] = true else unknown[#unknown + 1] = ids[i] end
  end
end
local handledNow = handledMany(unknown)
local staleNow = {}
if not politeHosts then
  local sv = batchCall('HMGET', KEYS[11], unknown)
  if sv then for i = 1, #unknown do if sv[i] then staleNow[unknown[i]] = true end end end
end
local added = {}

-- Writes collected over the batch: data, the fifo tail, the forefront head, and forefront orders counted locally
-- (meta `fseq` written once).
local dataArgs, fifoArgs, frontArgs = {}, {}, {}
local fseq = nil
local function nextFrontOrder()
  if not fseq then fseq = tonumber(redis.call('HGET', KEYS[1], 'fseq') or '0') end
  fseq = fseq + 1
  return -fseq
end
local function flushFifo()
  local len = batchCall('RPUSH', KEYS[3], fifoArgs)
  fifoArgs = {}
  return len
end
-- placeNew (includes/queue-order.lua) with its list pushes collected: a counted-stale id gets a placeholder at the
-- tail (its position, so the order stays exact) or a forefront order in back.
local function placeNewBatched(id)
  if forefront then
    local order = nextFrontOrder()
    if staleNow[id] then redis.call('ZADD', KEYS[9], order, id) else frontArgs[#frontArgs + 1] = (-order) .. ' ' .. id end
  elseif staleNow[id] then
    fifoArgs[#fifoArgs + 1] = ''
    local len = flushFifo()
    local position = tonumber(redis.call('HGET', KEYS[1], 'qhead') or '0') + len - 1
    redis.call('ZADD', KEYS[9], position + 1, id)
  else
    fifoArgs[#fifoArgs + 1] = id
  end
end

local res = {}
local addedPending, addedHandled, nNew, nFiltered = 0, 0, 0, 0
local requestIndex = 0
for i = 1, n do
  local base = 4 + width * (i - 1)
  local raw, kind, id, json, handled
  if width == 4 then
    raw, kind, id, json, handled = ARGV[base + 1], ARGV[base + 2], ARGV[base + 3], ARGV[base + 4], '0'
  else
    kind, id, json, handled = 'r', ARGV[base + 1], ARGV[base + 2], ARGV[base + 3]
  end
  local taken = false
  if feedStep == FEED_STEP_SREM then
    taken = redis.call('SREM', KEYS[#KEYS], raw) == 0
  elseif feedStep == FEED_STEP_ZREM then
    taken = redis.call('ZREM', KEYS[#KEYS], raw) == 0
  end
  if taken then
    if kind ~= 'd' then requestIndex = requestIndex + 1 end
    res[i] = ADD_FEED_TAKEN
  elseif kind == 'd' then
    -- A named dead letter (an item of a feed claim, src/feed/feed-claims.ts) is written once, however often its
    -- claim is replayed; an unnamed one gets the next number.
    if id == '' or redis.call('HEXISTS', KEYS[7], id) == 0 then
      local deadId = id
      if deadId == '' then deadId = 'feed-' .. redis.call('HINCRBY', KEYS[1], 'deadSeq', 1) end
      redis.call('HSET', KEYS[7], deadId, raw)
      redis.call('HSET', KEYS[8], deadId, cjson.encode({ reason = json, source = 'feed', at = now }))
    end
    res[i] = ADD_DEAD_LETTERED
  else
    requestIndex = requestIndex + 1
    -- The store first: a key it has seen that the queue does not hold pending is filtered (so the store's count of
    -- filtered requests is real), and the handled store is read only for keys the store finds new (a store
    -- attached to a queue that already had requests catches up).
    local isNew = nil
    if plan then
      local op = plan.ops[requestIndex]
      if op ~= nil then
        isNew = applyOp(op)
        if type(isNew) == 'table' then return isNew end
        if isNew then nNew = nNew + 1 end
      end
    end
    local state = nil
    if pendingNow[id] or added[id] == 'pending' then
      state = 'pending'
    elseif isNew ~= false and (handledNow[id] or added[id] == 'handled') then
      state = 'handled'
    end
    local present = state ~= nil
    local filtered = (not present) and isNew == false
    if present then
      if state == 'pending' then res[i] = ADD_PRESENT else res[i] = ADD_HANDLED end
    elseif filtered then
      res[i] = ADD_FILTERED
      nFiltered = nFiltered + 1
    else
      if handled == '1' then
        markHandled(id, json)
        added[id] = 'handled'
        addedHandled = addedHandled + 1
      else
        dataArgs[#dataArgs + 1] = id
        dataArgs[#dataArgs + 1] = json
        added[id] = 'pending'
        if politeHosts then
          local order
          if forefront then order = nextFrontOrder() else order = redis.call('HINCRBY', KEYS[1], 'pseq', 1) end
          politeMakeAvailable(id, order, politeHosts[i], politeMaxConc)
        else
          placeNewBatched(id)
        end
        addedPending = addedPending + 1
      end
      res[i] = ADD_ADDED
    end
  end
end
batchCall('HSET', KEYS[2], dataArgs, 2)
flushFifo()
batchCall('LPUSH', KEYS[4], frontArgs)
if fseq then redis.call('HSET', KEYS[1], 'fseq', fseq) end

redis.call('HSETNX', KEYS[1], 'createdAt', now)
if addedPending + addedHandled > 0 then
  redis.call('HINCRBY', KEYS[1], 'total', addedPending + addedHandled)
  if addedPending > 0 then redis.call('HINCRBY', KEYS[1], 'pending', addedPending) end
  if addedHandled > 0 then redis.call('HINCRBY', KEYS[1], 'handled', addedHandled) end
  redis.call('HSET', KEYS[1], 'modifiedAt', now)
end
handledSave()
if plan and plan.counter then
  local ckey = KEYS[13 + plan.counter.key]
  if nNew > 0 then redis.call('HINCRBY', ckey, plan.counter.newField, nNew) end
  if nFiltered > 0 then redis.call('HINCRBY', ckey, plan.counter.filteredField, nFiltered) end
end
return res

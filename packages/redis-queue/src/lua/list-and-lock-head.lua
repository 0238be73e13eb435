--[[
  Locks up to `limit` requests from the head of the queue for one client, after returning expired locks to the
  available set at their original queue order (lazy recovery of dead workers' requests; no sweeper needed).
  Order: forefront requests first (newest first), then FIFO (includes/queue-order.lua): the head is the lowest order
  of three sources, the forefront list's head, the FIFO list's head and the lowest of `back`.

  Stalls (BullMQ's maxStalledCount): an expired lock whose request had been started (its lock was prolonged, which
  Crawlee does as it takes the request from its local buffer; prolong-request-lock.lua marks the lock score with a
  half millisecond) counts one stall in KEYS[13]. A request that reaches ARGV[6] stalls (a request that kills the worker
  holding it: OOM, a native crash, SIGKILL) goes to the dead letters with the reason and the count instead of
  returning. Locked but never started requests (the rest of a dead worker's local buffer) return without a stall.
  A worker runs several requests at once, so the requests started beside a killer stall with it; and since expired
  locks return at their original place, the same group would be taken and started together again and die together.
  So a lock owner holds at most one suspect (a request with a stall counted) at a time: a call locks one only when
  the caller holds none, and the others stay available for other workers (or for this one once its suspect is
  handled or its lock ended). One call per suspect is not enough: a worker whose local buffer runs dry calls again
  at once (Crawlee does, up to its concurrency), and would take the killer and its old neighbours together again.
  KEYS[15] remembers the suspect each owner holds; an entry counts only while that owner still holds that lock
  (HGET owner), so a suspect handled or deleted since just leaves a stale entry the owner's next call replaces.
  So an innocent neighbour stalls once beside a killer, not maxStalls times.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] stalls (HASH request id -> stalls counted),
  KEYS[14] producer leases (ZSET lease id -> expiry ms, see renew-producer-lease.lua),
  KEYS[15] suspects (HASH lock owner clientKey -> id of the suspect it holds locked),
  KEYS[16] live (ZSET lock owner -> heartbeat expiry ms, heartbeat.lua)

  ARGV[1] limit (max requests to lock)
  ARGV[2] lock time in ms
  ARGV[3] clientKey of the caller (becomes the lock owner)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[5] max number of expired locks recovered in this call
  ARGV[6] maxStalls: stalls after which a request is dead-lettered ('0': stalls are not counted)
  ARGV[7] liveness window in ms of the caller ('0' or absent: no heartbeat). With a heartbeat the lock's score is a
          check time, now + the window, not now + the lock time: the owner keeps the lock while its heartbeat lives
          (includes/recover-expired-locks.lua), and a gone owner's locks return one window after its last beat

  Returns { queueHasLockedRequests (0|1), hadMultipleClients (0|1), now (ms), modifiedAt (ms or ''),
            id1, record1, id2, record2, ... }
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "recover-expired-locks"
--- @include "finish-flags"
--- @include "batch-call"
local now = redisNowMs(ARGV[4])
local limit = tonumber(ARGV[1])
local liveMs = tonumber(ARGV[7] or '0')
local lockExpiresAt = now + (liveMs > 0 and liveMs or tonumber(ARGV[2]))
local clientKey = ARGV[3]
local maxStalls = tonumber(ARGV[6])

recoverExpiredLocks(now, tonumber(ARGV[5]), maxStalls, releaseLock, function() end)

-- The three sources' heads, read a chunk at a time (LRANGE of each list, ZRANGE of back) instead of one LINDEX /
-- LPOP per entry: the lists are trimmed once at the end (LTRIM), the back members taken are removed in one ZREM. Each
-- chunk's entries get their data, stale counts and stall counts with one HMGET per hash, so a call costs a few
-- commands per structure whatever the number of requests it locks.
local meta = redis.call('HMGET', KEYS[1], 'qhead', 'firstClient', 'multipleClients', 'modifiedAt')
local qhead = tonumber(meta[1] or '0')
local qhead0 = qhead
local backSkip = 0 -- members of back left in place (suspects this caller may not take now)
local chunk = limit + 16
local dataC, staleC, stallC = {}, {}, {}
local function prefetch(ids, fromList)
  if #ids == 0 then return end
  local v = batchCall('HMGET', KEYS[2], ids)
  for i = 1, #ids do dataC[ids[i]] = v[i] end
  if fromList then
    v = batchCall('HMGET', KEYS[11], ids)
    for i = 1, #ids do staleC[ids[i]] = tonumber(v[i] or '0') end
  end
  if maxStalls > 0 then
    v = batchCall('HMGET', KEYS[13], ids)
    for i = 1, #ids do stallC[ids[i]] = v[i] ~= false end
  end
end
-- A list read in chunks: `base` is the list index of buf[1], `i` the next entry in buf; consumed() entries are
-- trimmed at the end.
local function listReader(key, parse)
  local r = { buf = {}, i = 1, base = 0, done = false }
  function r.peek()
    if r.i > #r.buf then
      if r.done then return nil end
      r.base = r.base + #r.buf
      r.buf = redis.call('LRANGE', key, r.base, r.base + chunk - 1)
      r.i = 1
      if #r.buf < chunk then r.done = true end
      local ids = {}
      for j = 1, #r.buf do
        local id = parse(r.buf[j], 0)
        if id ~= '' then ids[#ids + 1] = id end
      end
      prefetch(ids, true)
      if #r.buf == 0 then return nil end
    end
    local id, order = parse(r.buf[r.i], r.base + r.i - 1)
    return { id = id, order = order }
  end
  function r.pop() r.i = r.i + 1 end
  function r.consumed() return r.base + r.i - 1 end
  return r
end
local frontList = listReader(KEYS[4], function(el)
  local sp = string.find(el, ' ', 1, true)
  return string.sub(el, sp + 1), -tonumber(string.sub(el, 1, sp - 1))
end)
local fifoList = listReader(KEYS[3], function(el, index) return el, qhead0 + index + 1 end)
local function peekFront()
  local e = frontList.peek()
  if e then e.src = 'f' end
  return e
end
local function peekFifo()
  local e = fifoList.peek()
  if e then e.src = 'q' end
  return e
end
-- back in chunks from rank backSkip; the members taken (or dropped) are removed before the next chunk is read, so
-- the next unread member is at rank backSkip then.
local bbuf, bi, bdone, bRemove = {}, 1, false, {}
local function peekBack()
  if bi > #bbuf then
    if bdone then return nil end
    if #bRemove > 0 then batchCall('ZREM', KEYS[9], bRemove); bRemove = {} end
    bbuf = redis.call('ZRANGE', KEYS[9], backSkip, backSkip + chunk - 1, 'WITHSCORES')
    bi = 1
    if #bbuf < 2 * chunk then bdone = true end
    local ids = {}
    for j = 1, #bbuf, 2 do ids[#ids + 1] = bbuf[j] end
    prefetch(ids, false)
    if #bbuf == 0 then return nil end
  end
  return { src = 'b', id = bbuf[bi], order = tonumber(bbuf[bi + 1]) }
end
local function popBack() bi = bi + 2 end

local out = { 0, 0, now, '' }
local lockArgs, ownerArgs, heldArgs = {}, {}, {}
local missing = 0
-- The suspect rule (maxStalls): does the caller still hold the suspect it took last?
local holds, taken, heldSuspect = false, nil, nil
if maxStalls > 0 and limit > 0 then
  heldSuspect = redis.call('HGET', KEYS[15], clientKey)
  holds = heldSuspect and redis.call('HGET', KEYS[6], heldSuspect) == clientKey and redis.call('HEXISTS', KEYS[13], heldSuspect) == 1
end
local f, q, b = nil, nil, nil
if limit > 0 then f, q, b = peekFront(), peekFifo(), peekBack() end
-- `considered` counts the head positions looked at, as 0.1 looked at the first `limit` of its available set;
-- skipped list entries (stale, placeholders) do not count, and `budget` bounds them per call.
local considered, budget = 0, limit + 1000
while considered < limit and budget > 0 do
  local best = f
  if q and (not best or q.order < best.order) then best = q end
  if b and (not best or b.order < best.order) then best = b end
  if not best then break end
  budget = budget - 1
  local id = best.id
  local usable = true
  if best.src == 'f' then
    frontList.pop()
    f = peekFront()
  elseif best.src == 'q' then
    fifoList.pop()
    q = peekFifo()
  end
  if best.src ~= 'b' then
    -- A list entry is the request's place unless it is a placeholder or counted stale.
    if id == '' then
      usable = false
    elseif staleC[id] > 0 then
      staleC[id] = staleC[id] - 1
      if redis.call('HINCRBY', KEYS[11], id, -1) <= 0 then redis.call('HDEL', KEYS[11], id) end
      usable = false
    end
  end
  if usable then
    local record = dataC[id]
    if not record then
      -- A place without data (written by a third party): never hand it out; keep a trace in the dead letters.
      if best.src == 'b' then bRemove[#bRemove + 1] = id; popBack(); b = peekBack() end
      redis.call('HSET', KEYS[7], id, '')
      redis.call('HSET', KEYS[8], id, cjson.encode({ reason = 'request data missing', source = 'queue', at = now }))
      missing = missing + 1
    else
      considered = considered + 1
      local skip = false
      if maxStalls > 0 and stallC[id] then
        if holds or taken then skip = true else taken = id end
      end
      if skip then
        -- Stays available at its place for other workers (a list entry moves to back at its order: it was the
        -- lowest order left, so it ranks before every back member not yet looked at).
        if best.src ~= 'b' then redis.call('ZADD', KEYS[9], best.order, id) end
        backSkip = backSkip + 1
        if best.src == 'b' then popBack() end
        b = peekBack()
      else
        if best.src == 'b' then bRemove[#bRemove + 1] = id; popBack(); b = peekBack() end
        lockArgs[#lockArgs + 1] = lockExpiresAt
        lockArgs[#lockArgs + 1] = id
        ownerArgs[#ownerArgs + 1] = id
        ownerArgs[#ownerArgs + 1] = clientKey
        heldArgs[#heldArgs + 1] = id
        heldArgs[#heldArgs + 1] = best.order
        out[#out + 1] = id
        out[#out + 1] = record
      end
    end
  end
end
batchCall('ZREM', KEYS[9], bRemove)
if frontList.consumed() > 0 then redis.call('LTRIM', KEYS[4], frontList.consumed(), -1) end
qhead = qhead0 + fifoList.consumed()
if qhead ~= qhead0 then
  redis.call('LTRIM', KEYS[3], fifoList.consumed(), -1)
  redis.call('HSET', KEYS[1], 'qhead', qhead)
end
if taken then
  redis.call('HSET', KEYS[15], clientKey, taken)
elseif heldSuspect and not holds then
  redis.call('HDEL', KEYS[15], clientKey)
end
if #lockArgs > 0 then
  -- One command per structure for the whole batch (not per request): this runs on every worker's poll.
  batchCall('ZADD', KEYS[5], lockArgs, 2)
  batchCall('HSET', KEYS[6], ownerArgs, 2)
  batchCall('HSET', KEYS[10], heldArgs, 2)
end
-- Such an entry may never have been counted (written by a third party without touching meta): re-derive the
-- counters from data rather than decrement them (see includes/queue-order.lua).
if missing > 0 then recountAfterRemoval(0) end

-- Skipped entries ran out the budget before the head was found: the queue is not finished, ask again.
return finishFlags(out, now, clientKey, #lockArgs > 0, budget <= 0 and considered < limit, { first = meta[2], multiple = meta[3], modifiedAt = meta[4] })

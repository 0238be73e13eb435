--[[
  Locks up to `limit` requests from the head of the queue for one client, after returning expired locks to the
  available set at their original queue order (lazy recovery of dead workers' requests; no sweeper needed).
  Order: forefront requests first (newest first), then FIFO; the order is the score of `pending`/`avail`.

  Stalls (BullMQ's maxStalledCount): an expired lock whose request had been started (its lock was prolonged, which
  Crawlee does as it takes the request from its local buffer; prolong-request-lock.lua marks the lock score with a
  half millisecond) counts one stall in KEYS[9]. A request that reaches ARGV[6] stalls (a request that kills the worker
  holding it: OOM, a native crash, SIGKILL) goes to the dead letters with the reason and the count instead of
  returning. Locked but never started requests (the rest of a dead worker's local buffer) return without a stall.
  A worker runs several requests at once, so the requests started beside a killer stall with it; and since expired
  locks return at their original place, the same group would be taken and started together again and die together.
  So a lock owner holds at most one suspect (a request with a stall counted) at a time: a call locks one only when
  the caller holds none, and the others stay available for other workers (or for this one once its suspect is
  handled or its lock ended). One call per suspect is not enough: a worker whose local buffer runs dry calls again
  at once (Crawlee does, up to its concurrency), and would take the killer and its old neighbours together again.
  KEYS[11] remembers the suspect each owner holds; an entry counts only while that owner still holds that lock
  (HGET owner), so a suspect handled or deleted since just leaves a stale entry the owner's next call replaces.
  So an innocent neighbour stalls once beside a killer, not maxStalls times.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner,
  KEYS[7] dead, KEYS[8] deadinfo (see add-requests.lua), KEYS[9] stalls (HASH request id -> stalls counted),
  KEYS[10] producer leases (ZSET lease id -> expiry ms, see renew-producer-lease.lua),
  KEYS[11] suspects (HASH lock owner clientKey -> id of the suspect it holds locked)

  ARGV[1] limit (max requests to lock)
  ARGV[2] lock time in ms
  ARGV[3] clientKey of the caller (becomes the lock owner)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[5] max number of expired locks recovered in this call
  ARGV[6] maxStalls: stalls after which a request is dead-lettered ('0': stalls are not counted)

  Returns { queueHasLockedRequests (0|1), hadMultipleClients (0|1), now (ms), modifiedAt (ms or ''),
            id1, json1, id2, json2, ... }
]]
--- @include "redis-time"
--- @include "release-lock"
--- @include "unindex-request"
--- @include "recover-expired-locks"
--- @include "finish-flags"
local now = redisNowMs(ARGV[4])
local limit = tonumber(ARGV[1])
local lockExpiresAt = now + tonumber(ARGV[2])
local clientKey = ARGV[3]
local maxStalls = tonumber(ARGV[6])

recoverExpiredLocks(now, tonumber(ARGV[5]), maxStalls, releaseLock, function() end)

local out = { 0, 0, now, '' }
local ids = {}
if limit > 0 then ids = redis.call('ZRANGE', KEYS[4], 0, limit - 1) end
if maxStalls > 0 and #ids > 0 then
  local counts = redis.call('HMGET', KEYS[9], unpack(ids))
  -- Does the caller still hold the suspect it took last (the lock not handled, released, expired or deleted)?
  local held = redis.call('HGET', KEYS[11], clientKey)
  local holds = held and redis.call('HGET', KEYS[6], held) == clientKey and redis.call('HEXISTS', KEYS[9], held) == 1
  local kept, taken = {}, nil
  for i, id in ipairs(ids) do
    if not counts[i] then
      kept[#kept + 1] = id
    elseif not holds and not taken then
      taken = id
      kept[#kept + 1] = id
    end
  end
  ids = kept
  if taken then
    redis.call('HSET', KEYS[11], clientKey, taken)
  elseif held and not holds then
    redis.call('HDEL', KEYS[11], clientKey)
  end
end
local missing = 0
if #ids > 0 then
  -- One command per structure for the whole batch (not per request): this runs on every worker's poll.
  redis.call('ZREM', KEYS[4], unpack(ids))
  local jsons = redis.call('HMGET', KEYS[2], unpack(ids))
  local lockArgs, ownerArgs = {}, {}
  for i, id in ipairs(ids) do
    local json = jsons[i]
    if json then
      lockArgs[#lockArgs + 1] = lockExpiresAt
      lockArgs[#lockArgs + 1] = id
      ownerArgs[#ownerArgs + 1] = id
      ownerArgs[#ownerArgs + 1] = clientKey
      out[#out + 1] = id
      out[#out + 1] = json
    else
      -- Index entry without data: never hand it out; keep a trace in the dead letters.
      redis.call('ZREM', KEYS[3], id)
      redis.call('HSET', KEYS[7], id, '')
      redis.call('HSET', KEYS[8], id, cjson.encode({ reason = 'request data missing', source = 'queue', at = now }))
      missing = missing + 1
    end
  end
  if #lockArgs > 0 then
    redis.call('ZADD', KEYS[5], unpack(lockArgs))
    redis.call('HSET', KEYS[6], unpack(ownerArgs))
  end
end
-- Such an entry may never have been counted (written by a third party without touching meta): re-derive the
-- counters from the pending set rather than decrement them (see unindex-request.lua).
if missing > 0 then recountAfterRemoval(0) end

return finishFlags(out, now, clientKey, #ids > 0, false)

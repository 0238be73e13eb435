--[[
  The lock script of a queue created with politeness (docs/politeness.md): like list-and-lock-head.lua (same keys,
  arguments and reply; expired-lock recovery with stalls and suspects, finish flags), but available requests live in
  per-host queues and a request of host H is handed out only when H's next allowed time (Redis time) has come and
  fewer than maxConcurrencyPerHost requests of H are locked (per-host queues and a schedule of hosts ordered by next
  allowed time, as in Heritrix's frontier and Nutch's fetcher queues, but shared by the whole fleet).

  One call, O(log hosts + batch + due delayed):
  1. recover expired locks: each frees its host's slot and returns to its host's queue at its original order;
  2. move up to `limit` delayed requests (retry backoff) whose not-before time has passed back to their hosts;
  3. rounds: take the hosts whose time has come (ZRANGEBYSCORE p:hosts -inf now LIMIT), pop one request of each
     (ZPOPMIN of p:hq:<host>: forefront newest first, then FIFO), lock it, and re-schedule the host at
     now + minDelay (off the schedule while it has no available request or no free slot). With minDelay 0 a host
     stays due and the next round may take another of its requests, up to its free concurrency. A waiting host is
     never read, so it blocks no one, and its waiting requests cost nothing per call.
  The queue stays open (reply field 1) while hosts wait with available requests or delayed requests wait.

  KEYS as list-and-lock-head.lua (KEYS[1..12] the queue's keys, KEYS[13] stalls, KEYS[14] producer leases,
  KEYS[15] suspects, KEYS[16] live); the politeness keys are derived from KEYS[1] (includes/polite.lua). A polite queue keeps its
  available requests only in its host queues (never in the fifo / front / back structures of
  includes/queue-order.lua, which list-and-lock-head.lua reads); a locked request's order is in KEYS[10] held, as
  on any queue. ARGV as list-and-lock-head.lua. Reply as list-and-lock-head.lua; when nothing was locked and hosts or
  delayed requests wait, one more element ends it (so the reply has an odd length): the earliest time (ms, Redis time)
  a waiting host opens or a delayed request comes due, so the caller waits until then instead of polling blindly (a
  host at its concurrency limit is not scheduled, so its time is learnt by whoever asks after its request ends).
  When it locked something and minDelay > 0, the element is the earliest time another request can be handed out
  (the first waiting host or delayed request, at most now + minDelay): the caller's quiet window.
  Error ERR_POLITENESS when the queue was created without politeness.
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "polite"
--- @include "recover-expired-locks"
--- @include "finish-flags"
local now = redisNowMs(ARGV[4])
local limit = tonumber(ARGV[1])
local liveMs = tonumber(ARGV[7] or '0')
local lockExpiresAt = now + (liveMs > 0 and liveMs or tonumber(ARGV[2]))
local clientKey = ARGV[3]
local maxStalls = tonumber(ARGV[6])
local minDelay, maxConc = politeConfig()
if not minDelay then
  return politeRefusal()
end

recoverExpiredLocks(now, tonumber(ARGV[5]), maxStalls,
  function(id)
    if politeReleaseLock(id, now, 0, nil) then return end
    -- A lock without its host (written by someone else): it cannot go back to a host queue; keep a trace.
    local raw = redis.call('HGET', KEYS[2], id)
    unplace(id)
    if raw then
      redis.call('HDEL', KEYS[2], id)
      recountAfterRemoval(0)
      redis.call('HSET', KEYS[7], id, raw)
      redis.call('HSET', KEYS[8], id, cjson.encode({ reason = 'locked without a host on a polite queue', source = 'queue', at = now }))
    end
  end,
  function(id)
    local _, host = politeEndLock(id, now, minDelay)
    if host then politeSchedule(host, maxConc) end
  end)

-- Retried requests whose not-before time has come go back to their hosts (at most `limit` per call: the hand-outs
-- of one call cannot use more).
if limit > 0 then
  local due = redis.call('ZRANGEBYSCORE', P_DELAYED, '-inf', now, 'LIMIT', 0, limit)
  for _, id in ipairs(due) do
    redis.call('ZREM', P_DELAYED, id)
    local v = redis.call('HGET', P_HOSTOF, id)
    redis.call('HDEL', P_HOSTOF, id)
    if v and redis.call('HEXISTS', KEYS[2], id) == 1 then
      local order, host = splitHostOf(v)
      politeMakeAvailable(id, order, host, maxConc)
    end
  end
end

local out = { 0, 0, now, '' }
-- The suspect rule of list-and-lock-head.lua: a lock owner holds at most one request with a stall counted.
local canTakeSuspect = true
if maxStalls > 0 then
  local held = redis.call('HGET', KEYS[15], clientKey)
  if held and redis.call('HGET', KEYS[6], held) == clientKey and redis.call('HEXISTS', KEYS[13], held) == 1 then
    canTakeSuspect = false
  elseif held then
    redis.call('HDEL', KEYS[15], clientKey)
  end
end

local taken = 0
local skipped, nSkipped = {}, 0
while taken < limit do
  local due = redis.call('ZRANGEBYSCORE', P_HOSTS, '-inf', now, 'LIMIT', 0, limit - taken + nSkipped)
  local progress = false
  for _, host in ipairs(due) do
    if taken >= limit then break end
    if not skipped[host] then
      local q = hostQueue(host)
      local popped = redis.call('ZPOPMIN', q)
      if #popped == 0 then
        redis.call('ZREM', P_HOSTS, host)
        progress = true
      else
        progress = true
        local id, order = popped[1], popped[2]
        -- Entries of requests handled or deleted since are dropped here (not in data any more), as are entries of
        -- a request locked since (re-added while locked: its place is its lock).
        local json = redis.call('HGET', KEYS[2], id)
        if json and redis.call('HEXISTS', KEYS[6], id) == 1 then json = false end
        local suspect = json and maxStalls > 0 and redis.call('HEXISTS', KEYS[13], id) == 1
        if suspect and not canTakeSuspect then
          -- Back at its place; the host is left to other workers for this call.
          redis.call('ZADD', q, order, id)
          skipped[host] = true
          nSkipped = nSkipped + 1
        elseif json then
          if suspect then
            canTakeSuspect = false
            redis.call('HSET', KEYS[15], clientKey, id)
          end
          redis.call('ZADD', KEYS[5], lockExpiresAt, id)
          redis.call('HSET', KEYS[6], id, clientKey)
          redis.call('HSET', KEYS[10], id, order)
          redis.call('HSET', P_HOSTOF, id, order .. ' ' .. host)
          local inFlight = tonumber(redis.call('ZINCRBY', P_FLIGHT, 1, host))
          redis.call('HSET', P_NEXT, host, now + minDelay)
          out[#out + 1] = id
          out[#out + 1] = json
          taken = taken + 1
          -- politeSchedule with what is known here (the count and the next time just written): two reads fewer.
          if (maxConc == 0 or inFlight < maxConc) and redis.call('EXISTS', q) == 1 then
            redis.call('ZADD', P_HOSTS, now + minDelay, host)
          else
            redis.call('ZREM', P_HOSTS, host)
          end
        else
          politeSchedule(host, maxConc)
        end
      end
    end
  end
  if not progress then break end
end

-- The first host to open and the first delayed request to come due (one member each): the queue stays open while
-- either exists, and a caller that got nothing learns when to ask again.
local firstHost = redis.call('ZRANGE', P_HOSTS, 0, 0, 'WITHSCORES')
local firstDelayed = redis.call('ZRANGE', P_DELAYED, 0, 0, 'WITHSCORES')
local waiting = firstHost[1] ~= nil or firstDelayed[1] ~= nil
local reply = finishFlags(out, now, clientKey, taken > 0, waiting)
local nextAt = tonumber(firstHost[2] or firstDelayed[2])
if firstDelayed[2] and tonumber(firstDelayed[2]) < nextAt then nextAt = tonumber(firstDelayed[2]) end
if taken == 0 and waiting then
  reply[#reply + 1] = math.floor(nextAt)
elseif taken > 0 and minDelay > 0 then
  -- After a hand-out: nothing can be handed out before this time except a request another client adds (a host
  -- freed now or later opens minDelay after; a waiting host or delayed request at its time). The caller answers
  -- Crawlee's look-ahead call until then itself (one round trip less per hand-out on a queue of few hosts).
  local quietAt = now + minDelay
  if nextAt and nextAt < quietAt then quietAt = nextAt end
  reply[#reply + 1] = math.floor(quietAt)
end
return reply

--[[
  Prolongs the caller's locks of one or more requests: every prolongRequestLock one client makes in one event-loop
  turn arrives as one call (Crawlee prolongs each request it takes from its local buffer, so this runs once per
  request, and one script per batch costs Redis far less than one per request). Each request is checked on its own;
  a failure reaches only its own caller, and Crawlee's RequestQueue treats it as "lost lock, skip this request".

  KEYS[1..12] the queue's keys (see add-requests.lua): meta, data, locks, owner, held and done are used here

  ARGV[1] clientKey of the caller
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3] liveness window in ms of the caller ('0': no heartbeat). With a heartbeat the stored score is a check
          time (now + the window, never earlier than it was) and the expiry answered is the nominal one below: the
          owner keeps the lock while its heartbeat lives (includes/recover-expired-locks.lua), so a long lock time
          never delays the return of a dead owner's locks
  then five arguments per request:
    id
    lock time in ms
    forefront: '1' moves the request to the head of the queue for when its lock ends
    'expiry' extends from the current expiry (Crawlee MemoryStorage semantics), 'now' from now
    ms already added to the lock when it was taken, in anticipation of this prolong (the fastProlong option; '0'
      otherwise): the expiry counts from the lock's expiry without them

  The lock score gets half a millisecond on top of the expiry: the "started" mark (Crawlee prolongs a lock as it takes
  the request from its local buffer), so list-and-lock-head.lua counts a stall only for requests a worker was
  processing when its lock expired.

  Returns one entry per request, in order: the new lock expiry in ms (Redis time), or the error as a string
  '<code> detail' with ERR_NOT_FOUND, ERR_HANDLED, ERR_NOT_LOCKED or ERR_LOCKED_BY_OTHER (src/lua/reply-codes.json).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "request-state"
--- @include "batch-call"
local now = redisNowMs(ARGV[2])
local clientKey = ARGV[1]
local liveMs = tonumber(ARGV[3])
local out = {}
-- The owners and current scores of the whole batch with one HMGET and one ZMSCORE, the new scores with one ZADD: a
-- script call costs a few commands whatever the number of prolongs it carries. A second prolong of one id in the
-- same call starts from the score the first one set (`score`), as one by one.
local ids = {}
for i = 4, #ARGV, 5 do ids[#ids + 1] = ARGV[i] end
local owners = batchCall('HMGET', KEYS[6], ids) or {}
local owned = {}
for k = 1, #ids do if owners[k] == clientKey then owned[#owned + 1] = ids[k] end end
local score = {}
if #owned > 0 then
  local v = batchCall('ZMSCORE', KEYS[5], owned)
  for j = 1, #owned do score[owned[j]] = tonumber(v[j] or now) end
end
local zaddArgs = {}
for k = 1, #ids do
  local i = 4 + 5 * (k - 1)
  local id = ids[k]
  local owner = owners[k]
  if owner == clientKey then
    -- An owner entry exists only while its request is stored, pending and locked: every script that handles,
    -- deletes, dead-letters, releases or recovers a request removes it. So the owner check is the whole check.
    local from = now
    local current = score[id]
    if ARGV[i + 3] == 'expiry' and liveMs == 0 then
      current = current - tonumber(ARGV[i + 4])
      if current > now then from = current end
    end
    local expiresAt = math.floor(from) + tonumber(ARGV[i + 1])
    local newScore
    if liveMs > 0 then newScore = math.max(math.floor(current), now + liveMs) + 0.5 else newScore = expiresAt + 0.5 end
    score[id] = newScore
    zaddArgs[#zaddArgs + 1] = newScore
    zaddArgs[#zaddArgs + 1] = id
    if ARGV[i + 2] == '1' then redis.call('HSET', KEYS[10], id, forefrontOrder()) end
    out[#out + 1] = expiresAt
  else
    local state = requestState(id)
    if state == nil then
      out[#out + 1] = ERR_NOT_FOUND .. ' request ' .. id .. ' is not in the queue'
    elseif state ~= 'pending' then
      out[#out + 1] = ERR_HANDLED .. ' request ' .. id .. ' has already been handled'
    elseif not owner then
      out[#out + 1] = ERR_NOT_LOCKED .. ' request ' .. id .. ' is not locked'
    else
      out[#out + 1] = ERR_LOCKED_BY_OTHER .. ' request ' .. id .. ' is locked by another client'
    end
  end
end
batchCall('ZADD', KEYS[5], zaddArgs, 2)
return out

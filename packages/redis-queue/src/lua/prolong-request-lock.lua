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
local now = redisNowMs(ARGV[2])
local clientKey = ARGV[1]
local liveMs = tonumber(ARGV[3])
local out = {}
for i = 4, #ARGV, 5 do
  local id = ARGV[i]
  local owner = redis.call('HGET', KEYS[6], id)
  if owner == clientKey then
    -- An owner entry exists only while its request is stored, pending and locked: every script that handles,
    -- deletes, dead-letters, releases or recovers a request removes it. So the owner check is the whole check.
    local from = now
    local current = tonumber(redis.call('ZSCORE', KEYS[5], id) or now)
    if ARGV[i + 3] == 'expiry' and liveMs == 0 then
      current = current - tonumber(ARGV[i + 4])
      if current > now then from = current end
    end
    local expiresAt = math.floor(from) + tonumber(ARGV[i + 1])
    if liveMs > 0 then
      redis.call('ZADD', KEYS[5], math.max(math.floor(current), now + liveMs) + 0.5, id)
    else
      redis.call('ZADD', KEYS[5], expiresAt + 0.5, id)
    end
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
return out

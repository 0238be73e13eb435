--[[
  Creates the metadata of a request queue if it does not exist yet (idempotent: every worker calls it), and records
  the queue's politeness and handled store (see includes/polite.lua, includes/handled-store.lua) the first time.
  A later open with another handled mode or other Bloom parameters is refused, because the handled requests already
  stored could not be read in the other mode; politeness is compared by the caller (PolitenessMismatchError).

  KEYS[1] meta (see add-requests.lua; KEYS[2..12] unused here)

  ARGV[1] queue id
  ARGV[2] queue name ('' for an unnamed queue)
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[4] politeness of the creator: '<minDelayMs> <maxConcurrency>' (0: unlimited), '' without politeness. Fixed
          at creation (fields politeMinDelayMs / politeMaxConc): a queue that already exists keeps its own.
  ARGV[5] handledRequests mode: 'request' | 'key' | 'bits' | 'store' ('store' records nothing here: the attached
          dedup store is the record of handled requests, includes/handled-store.lua)
  ARGV[6] 'key' mode: entries per index bucket before a split (the load); else ''
  ARGV[7..9] 'bits' mode: bits per block (a multiple of 8, at most 2^32), k (bits per request), blocks; else ''
  ARGV[10] 'bits' mode: the expected count and rate it was sized from, as '<expected>:<rate>' (reported back)

  Returns { created (1|0), the queue's politeness in ARGV[4]'s format ('' without), format ('2' for a queue a script
            of this version created) }.
  Error: ERR_MODE_MISMATCH with the stored and the asked mode ('bits:<bits>:<k>:<blocks>').
]]
--- @include "redis-time"
--- @include "reply-codes"
local now = redisNowMs(ARGV[3])
-- A queue created here is format 2.
local fresh = redis.call('EXISTS', KEYS[1]) == 0
local mode = ARGV[5]
local params = mode
if mode == 'bits' then params = mode .. ':' .. ARGV[7] .. ':' .. ARGV[8] .. ':' .. ARGV[9] end
-- A queue without a mode (its meta made by another script's first write) takes the one asked for now.
local stored = redis.call('HMGET', KEYS[1], 'hmode', 'hbBits', 'hbK', 'hbBlocks')
if stored[1] then
  local have = stored[1]
  if have == 'bits' then have = have .. ':' .. stored[2] .. ':' .. stored[3] .. ':' .. stored[4] end
  if have ~= params then
    return redis.error_reply(ERR_MODE_MISMATCH .. ' it was created with handledRequests ' .. have .. ', opened with ' .. params)
  end
else
  redis.call('HSET', KEYS[1], 'hmode', mode)
  if mode == 'key' then redis.call('HSET', KEYS[1], 'hxLoad', ARGV[6], 'hxL', 0, 'hxS', 0, 'hxN', 0) end
  if mode == 'bits' then
    local bits, blocks = tonumber(ARGV[7]), tonumber(ARGV[9])
    redis.call('HSET', KEYS[1], 'hbBits', ARGV[7], 'hbK', ARGV[8], 'hbBlocks', ARGV[9], 'hbSizing', ARGV[10])
    -- Every block allocated up front: the filter's memory is fixed from the start (and measured honestly).
    local tag = string.sub(KEYS[1], 1, #KEYS[1] - 5)
    for i = 0, blocks - 1 do redis.call('SETBIT', tag .. ':hb:' .. i, bits - 1, 0) end
  end
end
local created = redis.call('HSETNX', KEYS[1], 'id', ARGV[1])
if fresh then redis.call('HSET', KEYS[1], 'format', 2) end
if ARGV[2] ~= '' then redis.call('HSETNX', KEYS[1], 'name', ARGV[2]) end
redis.call('HSETNX', KEYS[1], 'createdAt', now)
redis.call('HSETNX', KEYS[1], 'modifiedAt', now)
redis.call('HSETNX', KEYS[1], 'total', 0)
redis.call('HSETNX', KEYS[1], 'pending', 0)
redis.call('HSETNX', KEYS[1], 'handled', 0)
if created == 1 and ARGV[4] ~= '' then
  local sp = string.find(ARGV[4], ' ', 1, true)
  redis.call('HSET', KEYS[1], 'politeMinDelayMs', string.sub(ARGV[4], 1, sp - 1), 'politeMaxConc', string.sub(ARGV[4], sp + 1))
end
local p = redis.call('HMGET', KEYS[1], 'politeMinDelayMs', 'politeMaxConc')
local spec = ''
if p[1] then spec = p[1] .. ' ' .. (p[2] or '0') end
return { created, spec, redis.call('HGET', KEYS[1], 'format') or '' }

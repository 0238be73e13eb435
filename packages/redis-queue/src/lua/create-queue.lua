--[[
  Creates the metadata of a request queue if it does not exist yet (idempotent: every worker calls it).

  KEYS[1] meta (see add-requests.lua)

  ARGV[1] queue id
  ARGV[2] queue name ('' for an unnamed queue)
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[4] politeness of the creator: '<minDelayMs> <maxConcurrency>' (0: unlimited), '' without politeness. Fixed
          at creation (fields politeMinDelayMs / politeMaxConc, see includes/polite.lua): a queue that already
          exists keeps its own, and the caller compares (PolitenessMismatchError).

  Returns { created (1|0), the queue's politeness in the same format ('' without) }.
]]
--- @include "redis-time"
local now = redisNowMs(ARGV[3])
local created = redis.call('HSETNX', KEYS[1], 'id', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSETNX', KEYS[1], 'name', ARGV[2]) end
redis.call('HSETNX', KEYS[1], 'createdAt', now)
redis.call('HSETNX', KEYS[1], 'modifiedAt', now)
redis.call('HSETNX', KEYS[1], 'total', 0)
redis.call('HSETNX', KEYS[1], 'pending', 0)
redis.call('HSETNX', KEYS[1], 'handled', 0)
if created == 1 and ARGV[4] and ARGV[4] ~= '' then
  local sp = string.find(ARGV[4], ' ', 1, true)
  redis.call('HSET', KEYS[1], 'politeMinDelayMs', string.sub(ARGV[4], 1, sp - 1), 'politeMaxConc', string.sub(ARGV[4], sp + 1))
end
local p = redis.call('HMGET', KEYS[1], 'politeMinDelayMs', 'politeMaxConc')
local spec = ''
if p[1] then spec = p[1] .. ' ' .. (p[2] or '0') end
return { created, spec }

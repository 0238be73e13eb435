--[[
  Creates the metadata of a request queue if it does not exist yet (idempotent: every worker calls it).

  KEYS[1] meta (see add-requests.lua)

  ARGV[1] queue id
  ARGV[2] queue name ('' for an unnamed queue)
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns 1 when created, 0 when it already existed.
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
return created

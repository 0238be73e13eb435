--[[
  Creates the metadata of a request queue if it does not exist yet (idempotent: every worker calls it).

  KEYS[1] meta (see add-requests.lua; KEYS[2..12] unused here)

  ARGV[1] queue id
  ARGV[2] queue name ('' for an unnamed queue)
  ARGV[3] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns { created (1 when created, 0 when it already existed), format ('2', or '' for a 0.1 queue to migrate) }
]]
--- @include "redis-time"
local now = redisNowMs(ARGV[3])
local created = redis.call('HSETNX', KEYS[1], 'id', ARGV[1])
-- A queue created here is format 2; an existing one without `format` was written by 0.1 (migrate-legacy.lua).
if redis.call('HLEN', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'format', 2) end
if ARGV[2] ~= '' then redis.call('HSETNX', KEYS[1], 'name', ARGV[2]) end
redis.call('HSETNX', KEYS[1], 'createdAt', now)
redis.call('HSETNX', KEYS[1], 'modifiedAt', now)
redis.call('HSETNX', KEYS[1], 'total', 0)
redis.call('HSETNX', KEYS[1], 'pending', 0)
redis.call('HSETNX', KEYS[1], 'handled', 0)
return { created, redis.call('HGET', KEYS[1], 'format') or '' }

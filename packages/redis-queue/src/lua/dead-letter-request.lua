--[[
  Moves a request whose stored data cannot be read to the dead letters, with its raw bytes and the reason.
  Only acts when the data still equals the bytes the caller failed to read (another client may have fixed it).

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner,
  KEYS[7] dead, KEYS[8] deadinfo (see add-requests.lua), KEYS[9] stalls (see list-and-lock-head.lua)

  ARGV[1] request id
  ARGV[2] the raw bytes the caller read
  ARGV[3] reason (human readable)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns DEAD_LETTER_MOVED when moved, DEAD_LETTER_SKIPPED otherwise (src/lua/reply-codes.json).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "unindex-request"
--- @include "polite"
local now = redisNowMs(ARGV[4])
local id = ARGV[1]
local raw = redis.call('HGET', KEYS[2], id)
if raw ~= ARGV[2] then return DEAD_LETTER_SKIPPED end
-- Politeness: a locked request frees its host's slot; a delayed one leaves the delayed set.
politeForget(id, now)
redis.call('HDEL', KEYS[2], id)
redis.call('HDEL', KEYS[9], id)
unindexRequest(id)
redis.call('HSET', KEYS[7], id, raw)
redis.call('HSET', KEYS[8], id, cjson.encode({ reason = ARGV[3], source = 'queue', at = now }))
return DEAD_LETTER_MOVED

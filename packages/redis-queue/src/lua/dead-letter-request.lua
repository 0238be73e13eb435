--[[
  Moves a request whose stored data cannot be read to the dead letters, with its raw bytes and the reason.
  Only acts when the data still equals the bytes the caller failed to read (another client may have fixed it).

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] stalls (see list-and-lock-head.lua)
  The entry is read from data (an unhandled request) or else from the handled store.

  ARGV[1] request id
  ARGV[2] the raw bytes the caller read
  ARGV[3] reason (human readable)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)

  Returns DEAD_LETTER_MOVED when moved, DEAD_LETTER_SKIPPED otherwise (src/lua/reply-codes.json).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "handled-store"
--- @include "polite"
local now = redisNowMs(ARGV[4])
local id = ARGV[1]
local raw = redis.call('HGET', KEYS[2], id)
if raw then
  if raw ~= ARGV[2] then return DEAD_LETTER_SKIPPED end
  -- Politeness: a locked request frees its host's slot; a delayed one leaves the delayed set.
  politeForget(id, now)
  unplace(id)
  redis.call('HDEL', KEYS[2], id)
  recountAfterRemoval(0)
else
  raw = handledRecord(id)
  if raw ~= ARGV[2] then return DEAD_LETTER_SKIPPED end
  unmarkHandled(id)
  handledSave()
  recountAfterRemoval(1)
end
redis.call('HDEL', KEYS[13], id)
redis.call('HSET', KEYS[7], id, raw)
redis.call('HSET', KEYS[8], id, cjson.encode({ reason = ARGV[3], source = 'queue', at = now }))
return DEAD_LETTER_MOVED

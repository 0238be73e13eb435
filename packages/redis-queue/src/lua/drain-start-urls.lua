--[[
  Moves a batch of start-URL feed items (scrapy-redis `<name>:start_urls` list, read from the left) into the queue:
  valid items become requests (deduplicated like add-requests.lua), invalid ones become dead letters with the reason.
  The caller parsed the items; this script only commits. In check mode it first verifies that the feed still starts
  with exactly these raw items and trims them in the same step, so no item is lost or taken twice.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending, KEYS[4] avail, KEYS[5] locks, KEYS[6] owner,
  KEYS[7] dead, KEYS[8] deadinfo (see add-requests.lua)
  KEYS[9] the feed list (only in check mode)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[2] check mode: '1' verify and trim KEYS[9]; '0' the caller already popped the items
  ARGV[3..] quadruples: raw item bytes, kind ('r' request | 'd' dead letter), request id (or ''),
            request JSON (for 'r') or reason (for 'd')

  Returns FEED_HEAD_CHANGED when the feed head changed (nothing done; the caller retries), else one code per item
  (src/lua/reply-codes.json): ADD_ADDED, ADD_PRESENT, ADD_HANDLED, ADD_DEAD_LETTERED.
]]
--- @include "redis-time"
--- @include "reply-codes"
local now = redisNowMs(ARGV[1])
local n = (#ARGV - 2) / 4
if ARGV[2] == '1' then
  local head = redis.call('LRANGE', KEYS[9], 0, n - 1)
  if #head ~= n then return FEED_HEAD_CHANGED end
  for i = 1, n do
    if head[i] ~= ARGV[4 * i - 1] then return FEED_HEAD_CHANGED end
  end
  redis.call('LTRIM', KEYS[9], n, -1)
end

local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local firstSeq = seq
local res = {}
local added = 0
for i = 1, n do
  local raw, kind, id, payload = ARGV[4 * i - 1], ARGV[4 * i], ARGV[4 * i + 1], ARGV[4 * i + 2]
  if kind == 'r' then
    if redis.call('HEXISTS', KEYS[2], id) == 1 then
      if redis.call('ZSCORE', KEYS[3], id) then res[i] = ADD_PRESENT else res[i] = ADD_HANDLED end
    else
      seq = seq + 1
      redis.call('HSET', KEYS[2], id, payload)
      redis.call('ZADD', KEYS[3], seq, id)
      redis.call('ZADD', KEYS[4], seq, id)
      added = added + 1
      res[i] = ADD_ADDED
    end
  else
    local deadId = 'feed-' .. redis.call('HINCRBY', KEYS[1], 'deadSeq', 1)
    redis.call('HSET', KEYS[7], deadId, raw)
    redis.call('HSET', KEYS[8], deadId, cjson.encode({ reason = payload, source = 'feed', at = now }))
    res[i] = ADD_DEAD_LETTERED
  end
end
redis.call('HSETNX', KEYS[1], 'createdAt', now)
if seq ~= firstSeq then redis.call('HSET', KEYS[1], 'seq', seq) end
if added > 0 then
  redis.call('HINCRBY', KEYS[1], 'total', added)
  redis.call('HINCRBY', KEYS[1], 'pending', added)
  redis.call('HSET', KEYS[1], 'modifiedAt', now)
end
return res

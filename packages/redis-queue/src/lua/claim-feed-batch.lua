--[[
  Claims one batch of a start-URL feed key for a queue whose add script cannot remove the items itself: a sharded
  queue, whose batch goes to several shards (several hash tags, so several scripts). The items leave the feed and
  enter a claim record in the feed's own slot in one step; the worker then adds them to their shards and deletes the
  claim (src/feed/feed-claims.ts). A worker killed in between leaves the claim: once its lease runs out (Redis time)
  the next worker that drains the feed replays it first. The shards' dedup by uniqueKey makes a replay idempotent
  (dead letters and alwaysEnqueue keys are named after the claim), so an item is lost never and enqueued at most once.

  KEYS[1] feed      LIST | SET | ZSET  the feed key, read as scrapy-redis pops it: a list from the left (LPOP), a set
                    in any order (SPOP), a sorted set highest score first (ZPOPMAX)
  KEYS[2] claims    ZSET  claim id -> lease expiry (ms, Redis time)
  KEYS[3] claimed   HASH  '<id>:n' -> item count, '<id>:<i>' -> raw item i (0-based), 'commits' -> claims committed
                    (read by the finish check: a commit since a worker's last look means its look may have missed work)

  ARGV[1] layout: 'list' | 'set' | 'zset' | 'auto' (any of the three, by TYPE)
  ARGV[2] at most this many items
  ARGV[3] lease in ms (the caller's lock time: a claim comes back like an expired lock)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[5] id of a new claim (random, from the caller; a call run twice with one id returns the same claim)

  Returns (codes in src/lua/reply-codes.json, feedClaim):
    { FEED_CLAIM_REPLAYED, id, raw... }  an expired claim, leased again to the caller (checked before the feed, so a
                                         dead worker's batch is not left behind newer items)
    { FEED_CLAIM_CLAIMED, id, raw... }   a new claim of the items popped from the feed
    { FEED_CLAIM_EMPTY, liveClaims, commits }  nothing to claim; liveClaims other workers still hold
    { FEED_CLAIM_WRONG_TYPE, type }      the feed key holds a type the layout cannot read (nothing done)
]]
--- @include "redis-time"
--- @include "reply-codes"
local now = redisNowMs(ARGV[4])
local expiry = now + tonumber(ARGV[3])
local CHUNK = 1000 -- HMGET / HSET arguments per call (Lua's unpack is limited to a few thousand values)

local function fieldsOf(id, from, to)
  local fields = {}
  for i = from, to do fields[#fields + 1] = id .. ':' .. i end
  return fields
end

-- Leases claim `id` to the caller and returns its items, or nil when its record is gone.
local function leaseClaim(code, id)
  local n = tonumber(redis.call('HGET', KEYS[3], id .. ':n'))
  if not n then return nil end
  redis.call('ZADD', KEYS[2], expiry, id)
  local reply = { code, id }
  for from = 0, n - 1, CHUNK do
    local items = redis.call('HMGET', KEYS[3], unpack(fieldsOf(id, from, math.min(n - 1, from + CHUNK - 1))))
    for i = 1, #items do reply[#reply + 1] = items[i] end
  end
  return reply
end

-- 0. This very call, run again (the connection retried it after a lost reply): the same claim, not a second batch
-- over the first one's record.
if redis.call('ZSCORE', KEYS[2], ARGV[5]) then
  local again = leaseClaim(FEED_CLAIM_CLAIMED, ARGV[5])
  if again then return again end
end

-- 1. An expired claim first: its worker died (or stalled) between the claim and the commit.
for _ = 1, 10 do
  local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1)[1]
  if not expired then break end
  local reply = leaseClaim(FEED_CLAIM_REPLAYED, expired)
  if reply then return reply end
  redis.call('ZREM', KEYS[2], expired) -- a claim without its record (edited by hand): nothing to replay
end

-- 2. A new batch from the feed.
local kind = redis.call('TYPE', KEYS[1]).ok
local layout = ARGV[1]
if kind ~= 'none' and ((kind ~= 'list' and kind ~= 'set' and kind ~= 'zset') or (layout ~= 'auto' and kind ~= layout)) then
  return { FEED_CLAIM_WRONG_TYPE, kind }
end
local count = tonumber(ARGV[2])
local items = {}
if kind == 'list' then
  items = redis.call('LPOP', KEYS[1], count)
elseif kind == 'set' then
  items = redis.call('SPOP', KEYS[1], count)
elseif kind == 'zset' then
  local flat = redis.call('ZPOPMAX', KEYS[1], count)
  for i = 1, #flat, 2 do items[#items + 1] = flat[i] end
end
if not items or #items == 0 then
  return { FEED_CLAIM_EMPTY, redis.call('ZCARD', KEYS[2]), tonumber(redis.call('HGET', KEYS[3], 'commits') or '0') }
end

local id = ARGV[5]
redis.call('ZADD', KEYS[2], expiry, id)
redis.call('HSET', KEYS[3], id .. ':n', #items)
for from = 1, #items, CHUNK do
  local args = {}
  for i = from, math.min(#items, from + CHUNK - 1) do
    args[#args + 1] = id .. ':' .. (i - 1)
    args[#args + 1] = items[i]
  end
  redis.call('HSET', KEYS[3], unpack(args))
end
local reply = { FEED_CLAIM_CLAIMED, id }
for i = 1, #items do reply[#reply + 1] = items[i] end
return reply

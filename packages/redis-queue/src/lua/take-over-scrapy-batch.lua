--[[
  Takes over one batch of a scrapy-redis frontier (`<spider>:requests`): removes the raw entries from the Scrapy key
  and stores the requests they became in this queue, in one atomic step, so a takeover killed at any moment neither
  loses an entry nor moves one twice. The caller parsed the entries (pickle or JSON, src/takeover/); entries it could
  not read become dead letters with their raw bytes and the reason. The enqueue filter is not consulted on purpose:
  Scrapy already put these requests' fingerprints into its dupefilter when it scheduled them, so a filter sharing
  that set would drop every one of them.

  Source step, by scrapy-redis queue class (scrapy_redis/queue.py):
    'zset'  PriorityQueue (ZADD score -priority, pops ZRANGE 0 0): each raw member is ZREM'd; a member already gone
            (a Scrapy worker still running popped it) is skipped with TAKEOVER_GONE.
    'fifo'  FifoQueue (LPUSH, RPOP): the entries must still be the list's right end (entry 1 the rightmost), then
            they are trimmed off; otherwise TAKEOVER_SOURCE_CHANGED and nothing is done.
    'lifo'  LifoQueue (LPUSH, LPOP): the same at the left end.
    'none'  the source is on another Cluster slot: the caller removes the entries after this script (crash-safe
            two-step: re-running a batch finds its requests present and only removes them from the source).

  KEYS[1..12] the queue's keys (see add-requests.lua)
  KEYS[13]    the Scrapy frontier key (absent with source step 'none')

  ARGV[1] source step: 'zset' | 'fifo' | 'lifo' | 'none'
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3..] quadruples in Scrapy's pop order: raw entry bytes, kind ('r' request | 'd' dead letter), request id
            (for 'd' the dead-letter id, `takeover-<digest of the raw bytes>`, so a re-run rewrites the same letter),
            request record (for 'r') or reason (for 'd')
  ARGV[last] only on a queue created with politeness: NUL then a JSON array with the host key of each entry ('' for
            'd'), the workers' hostKey of its URL; each request goes into its host's queue (includes/polite-requeue.lua)

  Returns TAKEOVER_SOURCE_CHANGED (lists only; nothing done, the caller re-reads), else one code per entry:
  ADD_ADDED, ADD_PRESENT, ADD_HANDLED, ADD_DEAD_LETTERED, TAKEOVER_GONE (src/lua/reply-codes.json).
  ERR_POLITENESS when the call's and the queue's politeness differ, ERR_QUEUE_MISSING when a polite call finds no
  queue (nothing written).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "request-state"
--- @include "polite"
--- @include "polite-requeue"
local now = redisNowMs(ARGV[2])
-- On a polite queue the request goes to its host's queue (includes/polite-requeue.lua); a call without its host
-- on a polite queue, or with one on an unpolite queue, is refused here, before anything is written.
local refusal = requeueBegin()
if refusal then return refusal end
local step = ARGV[1]
local n = (requeueLastArg() - 2) / 4
local source = KEYS[13]

if step == 'fifo' or step == 'lifo' then
  for i = 1, n do
    local index = i - 1
    if step == 'fifo' then index = -i end
    if redis.call('LINDEX', source, index) ~= ARGV[2 + 4 * (i - 1) + 1] then return TAKEOVER_SOURCE_CHANGED end
  end
  if n > 0 then
    if step == 'fifo' then redis.call('LTRIM', source, 0, -(n + 1)) else redis.call('LTRIM', source, n, -1) end
  end
end

-- A 'store' queue's record of handled requests is its dedup store, which this script does not run.
if handledMode() == 'store' then
  return redis.error_reply(ERR_STORE_REQUIRED .. ' a takeover cannot move requests into a queue that keeps its handled requests in its dedup store (handledRequests store)')
end
-- A queue this script creates is format 2, the mark of a meta a script of this version made (queue-core's ensureMeta).
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'format', 2) end
local res = {}
local added = 0
for i = 1, n do
  local base = 2 + 4 * (i - 1)
  local raw, kind, id, json = ARGV[base + 1], ARGV[base + 2], ARGV[base + 3], ARGV[base + 4]
  if step == 'zset' and redis.call('ZREM', source, raw) == 0 then
    res[i] = TAKEOVER_GONE
  elseif kind == 'd' then
    redis.call('HSET', KEYS[7], id, raw)
    redis.call('HSET', KEYS[8], id, cjson.encode({ reason = json, source = 'takeover', at = now }))
    res[i] = ADD_DEAD_LETTERED
  elseif requestState(id) ~= nil then
    if isPending(id) then res[i] = ADD_PRESENT else res[i] = ADD_HANDLED end
  else
    redis.call('HSET', KEYS[2], id, json)
    requeuePlace(id, i)
    added = added + 1
    res[i] = ADD_ADDED
  end
end

redis.call('HSETNX', KEYS[1], 'createdAt', now)
if added > 0 then
  redis.call('HINCRBY', KEYS[1], 'total', added)
  redis.call('HINCRBY', KEYS[1], 'pending', added)
  redis.call('HSET', KEYS[1], 'modifiedAt', now)
end
return res

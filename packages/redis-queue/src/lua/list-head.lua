--[[
  Lists the first `limit` unhandled requests in queue order (Crawlee's RequestQueueV1, `requestLocking: false`, reads
  the queue only through this; RequestQueueV2 only on its legacy isFinished path): the available ones merged from the
  three sources of includes/queue-order.lua, and locked ones at their held order (the `limit` soonest-expiring locks:
  a bound, so a queue with more locks than `limit` may list fewer of them).
  On a polite queue the available ones are in host queues (includes/polite.lua): the first `limit` of each of the
  first `limit` scheduled hosts and hosts in flight, and the first `limit` delayed requests (also a bound).

  Stale entries: only a list entry can be stale (an id counted in KEYS[11]); `back`, `held` and host queues hold live
  places only, so a request moved while nobody held it is listed at its new place. Each list is walked from its head
  until it gave `limit` live entries (or ended), however many stale entries and placeholders lie before them: V1 marks
  requests handled without ever locking, so nothing else pops the entries they leave. What a walk skips is cleaned
  here, lazily, so later calls do not skip it again:
  - skipped entries before the list's first live entry are popped (as the lock script pops them at the head);
  - when `limit` or more skipped entries lie behind live ones (a slow request at the head while the ones after it were
    handled), the walked prefix up to the last skipped entry is cut, and its live entries move to `back` at their
    exact order: at most `limit` moves for at least `limit` entries removed, so the queue never grows.
  O((limit + skipped entries) log N), O(limit^2 log N) on a polite queue; never a whole-list read.

  KEYS[1..12] the queue's keys (see add-requests.lua)

  ARGV[1] limit

  Returns { modifiedAt (ms or ''), hadMultipleClients (0|1), id1, record1, ... } (record is '' when data is missing)
]]
--- @include "reply-codes"
--- @include "polite"
local limit = tonumber(ARGV[1])
local out = { redis.call('HGET', KEYS[1], 'modifiedAt') or '', redis.call('HEXISTS', KEYS[1], 'multipleClients') }
if limit <= 0 then return out end
local candidates = {}
local seen = {}
local function add(id, order)
  if id == '' or seen[id] then return end
  seen[id] = true
  candidates[#candidates + 1] = { id = id, order = order }
end

-- Runs `command` on `key` with `args` (pairs when width is 2) in calls of at most 500 items (unpack's stack bound).
local function batched(command, key, args, width)
  local step = 500 * width
  for i = 1, #args, step do redis.call(command, key, unpack(args, i, math.min(i + step - 1, #args))) end
end

-- Walks list `key` from its head in chunks (one LRANGE and one HMGET of stale counts per chunk, never the whole list)
-- until `limit` live entries. parse(entry, index) gives the entry's id ('' for a placeholder) and order. Then cuts
-- what it skipped (see above); returns the number of entries cut from the head.
local chunk = math.min(limit + 32, 1000)
local function walk(key, parse)
  local live, skipped = {}, {}
  local firstLive = nil
  local start = 0
  while #live < limit do
    local entries = redis.call('LRANGE', key, start, start + chunk - 1)
    if #entries == 0 then break end
    local ids, orders = {}, {}
    for j = 1, #entries do ids[j], orders[j] = parse(entries[j], start + j - 1) end
    local counts = redis.call('HMGET', KEYS[11], unpack(ids))
    for j = 1, #entries do
      local index = start + j - 1
      if ids[j] == '' or counts[j] then
        skipped[#skipped + 1] = { id = ids[j], index = index, count = tonumber(counts[j] or '0') }
      else
        live[#live + 1] = { id = ids[j], order = orders[j], index = index }
        firstLive = firstLive or index
        if #live >= limit then break end
      end
    end
    if #entries < chunk then break end
    start = start + chunk
  end
  local cut = firstLive or (#skipped > 0 and skipped[#skipped].index + 1) or 0
  local behind = 0
  for _, s in ipairs(skipped) do
    if s.index >= cut then behind = behind + 1 end
  end
  if behind >= limit then cut = skipped[#skipped].index + 1 end
  -- A stale count drops by the entries cut; an id whose entries are all gone leaves the stale hash.
  local removed, staleCount, gone = {}, {}, {}
  for _, s in ipairs(skipped) do
    if s.index < cut and s.id ~= '' then
      removed[s.id] = (removed[s.id] or 0) + 1
      staleCount[s.id] = s.count
    end
  end
  for id, n in pairs(removed) do
    if staleCount[id] - n <= 0 then gone[#gone + 1] = id else redis.call('HINCRBY', KEYS[11], id, -n) end
  end
  batched('HDEL', KEYS[11], gone, 1)
  -- A live entry before the cut keeps its exact order in back; listed from here either way.
  local moved = {}
  for _, e in ipairs(live) do
    if e.index < cut then
      moved[#moved + 1] = e.order
      moved[#moved + 1] = e.id
    end
    add(e.id, e.order)
  end
  batched('ZADD', KEYS[9], moved, 2)
  if cut > 0 then redis.call('LTRIM', key, cut, -1) end
  return cut
end

walk(KEYS[4], function(el)
  local sp = string.find(el, ' ', 1, true)
  return string.sub(el, sp + 1), -tonumber(string.sub(el, 1, sp - 1))
end)
-- FIFO orders are positions: the entry at index i has order qhead + i + 1, before and after a cut.
local qhead = tonumber(redis.call('HGET', KEYS[1], 'qhead') or '0')
local cut = walk(KEYS[3], function(id, index) return id, qhead + index + 1 end)
if cut > 0 then redis.call('HSET', KEYS[1], 'qhead', qhead + cut) end

local back = redis.call('ZRANGE', KEYS[9], 0, limit - 1, 'WITHSCORES')
for i = 1, #back, 2 do add(back[i], tonumber(back[i + 1])) end
if politeConfig() then
  local hosts = {}
  for _, set in ipairs({ P_HOSTS, P_FLIGHT }) do
    for _, host in ipairs(redis.call('ZRANGE', set, 0, limit - 1)) do hosts[host] = true end
  end
  for host in pairs(hosts) do
    local q = redis.call('ZRANGE', hostQueue(host), 0, limit - 1, 'WITHSCORES')
    for i = 1, #q, 2 do
      if redis.call('HEXISTS', KEYS[2], q[i]) == 1 then add(q[i], tonumber(q[i + 1])) end
    end
  end
  for _, id in ipairs(redis.call('ZRANGE', P_DELAYED, 0, limit - 1)) do
    local v = redis.call('HGET', P_HOSTOF, id)
    if v then add(id, (splitHostOf(v))) end
  end
end
for _, id in ipairs(redis.call('ZRANGE', KEYS[5], 0, limit - 1)) do
  local order = redis.call('HGET', KEYS[10], id)
  if order then add(id, tonumber(order)) end
end
table.sort(candidates, function(a, b) return a.order < b.order end)
local listed = {}
for i = 1, math.min(limit, #candidates) do listed[i] = candidates[i].id end
for i = 1, #listed, 500 do
  local records = redis.call('HMGET', KEYS[2], unpack(listed, i, math.min(i + 499, #listed)))
  for j = 1, #records do
    out[#out + 1] = listed[i + j - 1]
    out[#out + 1] = records[j] or ''
  end
end
return out

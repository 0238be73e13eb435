--[[
  Lists up to `limit` unhandled requests in queue order (Crawlee's legacy isFinished path and debugging): the
  available ones merged from the three sources of includes/queue-order.lua, and locked ones at their held order
  (the `limit` soonest-expiring locks: a bound, so a queue with more locks than `limit` may list fewer of them).
  On a polite queue the available ones are in host queues (includes/polite.lua): the first `limit` of each of the
  first `limit` scheduled hosts and hosts in flight, and the first `limit` delayed requests (also a bound).
  Read-only, O(limit log N), O(limit^2 log N) on a polite queue.

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
  if id == '' or seen[id] or redis.call('HEXISTS', KEYS[11], id) == 1 then return end
  seen[id] = true
  candidates[#candidates + 1] = { id = id, order = order }
end
-- One LINDEX per entry (each O(1) near the head), never a whole-list read.
for i = 0, limit - 1 do
  local el = redis.call('LINDEX', KEYS[4], i)
  if not el then break end
  local sp = string.find(el, ' ', 1, true)
  if sp then add(string.sub(el, sp + 1), -tonumber(string.sub(el, 1, sp - 1))) end
end
local qhead = tonumber(redis.call('HGET', KEYS[1], 'qhead') or '0')
-- Stale entries and placeholders are skipped: read a little further than limit.
for i = 0, 2 * limit - 1 do
  local id = redis.call('LINDEX', KEYS[3], i)
  if not id then break end
  add(id, qhead + i + 1)
end
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
for i = 1, math.min(limit, #candidates) do
  out[#out + 1] = candidates[i].id
  out[#out + 1] = redis.call('HGET', KEYS[2], candidates[i].id) or ''
end
return out

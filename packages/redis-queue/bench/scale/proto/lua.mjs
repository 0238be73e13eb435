// Lua of the prototype layouts (scratch: the real scripts will live one per file under src/lua/).
// Shared fragments: TIME, the handled stores of the three modes (request / key / bits).

export const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

// Handled stores. mode = ARGV[1]; the bucket keys share the queue's hash tag (built here for the prototype; the real
// scripts get them as KEYS from the client, which computes the bucket the same way).
// key:  linear hashing over listpack hashes <tag>:hk:<b>; h from id chars 1..5 (base 62), field = the whole id,
//       value ''; a split rewrites one bucket (at most ~2 x LOAD entries) when count > LOAD x buckets.
// bits: one Bloom string <tag>:hb of m bits, k bits per id (sha1-km64-v1 on the id: a, b from SHA-1(id)).
export const HANDLED = `
local MODE, BLOOM_M, BLOOM_K, TAG, LOAD = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local B62 = {}
local alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
for i = 1, 62 do B62[string.byte(alphabet, i)] = i - 1 end
local function h62(id)
  local h = 0
  for i = 1, 5 do h = h * 62 + (B62[string.byte(id, i)] or 0) end
  return h
end
local lhL, lhS, lhN
local function lhLoad()
  if lhL then return end
  local v = redis.call('HMGET', KEYS[1], 'hkL', 'hkS', 'hkN')
  lhL, lhS, lhN = tonumber(v[1] or '4'), tonumber(v[2] or '0'), tonumber(v[3] or '0')
end
local function lhBucket(h)
  local b = h % (2 ^ lhL)
  if b < lhS then b = h % (2 ^ (lhL + 1)) end
  return TAG .. ':hk:' .. b
end
local function lhSplit()
  local old = TAG .. ':hk:' .. lhS
  local all = redis.call('HGETALL', old)
  redis.call('DEL', old)
  lhS = lhS + 1
  for i = 1, #all, 2 do redis.call('HSET', lhBucket(h62(all[i])), all[i], all[i + 1]) end
  if lhS >= 2 ^ lhL then lhL = lhL + 1; lhS = 0 end
end
local function modhex(h, from, to, mod)
  local r = 0
  for i = from, to, 4 do r = (r * 65536 + tonumber(string.sub(h, i, i + 3), 16)) % mod end
  return r
end
local function bloomArgs(id, op)
  local h = redis.sha1hex(id)
  local x = modhex(h, 1, 16, BLOOM_M)
  local b = modhex(h, 17, 32, BLOOM_M - 1) + 1
  local args = {}
  for i = 0, BLOOM_K - 1 do
    args[#args + 1] = op; args[#args + 1] = 'u1'; args[#args + 1] = x
    if op == 'SET' then args[#args + 1] = 1 end
    x = x + b
    if x >= BLOOM_M then x = x - BLOOM_M end
  end
  return args
end
local function handledHas(id, doneKey)
  if MODE == 'request' then return redis.call('HEXISTS', doneKey, id) == 1 end
  if MODE == 'key' then lhLoad(); return redis.call('HEXISTS', lhBucket(h62(id)), id) == 1 end
  local bits = redis.call('BITFIELD', TAG .. ':hb', unpack(bloomArgs(id, 'GET')))
  for _, v in ipairs(bits) do if v == 0 then return false end end
  return true
end
local function handledAdd(id, record, doneKey)
  if MODE == 'request' then redis.call('HSET', doneKey, id, record); return end
  if MODE == 'key' then
    lhLoad()
    if redis.call('HSET', lhBucket(h62(id)), id, '') == 1 then
      lhN = lhN + 1
      if lhN > LOAD * (2 ^ lhL + lhS) then lhSplit() end
    end
    return
  end
  redis.call('BITFIELD', TAG .. ':hb', unpack(bloomArgs(id, 'SET')))
end
local function handledSave()
  if lhL then redis.call('HSET', KEYS[1], 'hkL', lhL, 'hkS', lhS, 'hkN', lhN) end
end
`;

// Layout C, lists: KEYS 1 meta, 2 data (HASH id -> record, pending only), 3 fifo (LIST of ids), 4 front (LIST of
// "id:seq", newest first), 5 back (ZSET id -> original order: expired or reclaimed), 6 locks (ZSET id -> expiry),
// 7 lockinfo (HASH id -> "owner|order"), 8 done (HASH id -> record, 'request' mode).
// ARGV 1..5 handled-store settings (see HANDLED), ARGV[6] forefront, then pairs id, record.
export const C_ADD = HANDLED + `
local forefront = ARGV[6] == '1'
local res, added = {}, 0
for i = 7, #ARGV, 2 do
  local id = ARGV[i]
  if redis.call('HEXISTS', KEYS[2], id) == 1 then res[#res + 1] = 1
  elseif handledHas(id, KEYS[8]) then res[#res + 1] = 2
  else
    redis.call('HSET', KEYS[2], id, ARGV[i + 1])
    if forefront then
      redis.call('LPUSH', KEYS[4], id .. ':' .. redis.call('HINCRBY', KEYS[1], 'fseq', 1))
    else
      redis.call('RPUSH', KEYS[3], id)
    end
    added = added + 1
    res[#res + 1] = 0
  end
end
if added > 0 then
  redis.call('HINCRBY', KEYS[1], 'pending', added)
  redis.call('HINCRBY', KEYS[1], 'total', added)
  if not forefront then redis.call('HINCRBY', KEYS[1], 'ftail', added) end
end
return res
`;

// ARGV 1 limit, 2 lock ms, 3 clientKey, 4 max expired locks recovered. Returns id, order, record triples.
export const C_LOCK = NOW + `
local limit, lockMs, clientKey = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))) do
  local info = redis.call('HGET', KEYS[7], id)
  redis.call('ZADD', KEYS[5], tonumber(string.match(info, '|(.*)$')), id)
  redis.call('ZREM', KEYS[6], id)
  redis.call('HDEL', KEYS[7], id)
end
local front = redis.call('LRANGE', KEYS[4], 0, limit - 1)
local back = redis.call('ZRANGE', KEYS[5], 0, limit - 1, 'WITHSCORES')
local fifo = redis.call('LRANGE', KEYS[3], 0, limit - 1)
local fhead = tonumber(redis.call('HGET', KEYS[1], 'fhead') or '0')
local i, j, l = 1, 1, 1
local picked = {}
while #picked < limit do
  local best, bestOrder = nil, nil
  if front[i] then local id, s = string.match(front[i], '^(.*):(%d+)$'); best, bestOrder = 'f', -tonumber(s) end
  if back[2 * j - 1] and (not bestOrder or tonumber(back[2 * j]) < bestOrder) then best, bestOrder = 'b', tonumber(back[2 * j]) end
  if fifo[l] and (not bestOrder or fhead + l < bestOrder) then best, bestOrder = 'q', fhead + l end
  if not best then break end
  if best == 'f' then picked[#picked + 1] = { string.match(front[i], '^(.*):'), bestOrder }; i = i + 1
  elseif best == 'b' then picked[#picked + 1] = { back[2 * j - 1], bestOrder }; j = j + 1
  else picked[#picked + 1] = { fifo[l], bestOrder }; l = l + 1 end
end
if i > 1 then redis.call('LPOP', KEYS[4], i - 1) end
if j > 1 then local ids = {}; for x = 1, j - 1 do ids[x] = back[2 * x - 1] end; redis.call('ZREM', KEYS[5], unpack(ids)) end
if l > 1 then redis.call('LPOP', KEYS[3], l - 1); redis.call('HINCRBY', KEYS[1], 'fhead', l - 1) end
local out = {}
local exp = now + lockMs
for _, p in ipairs(picked) do
  local record = redis.call('HGET', KEYS[2], p[1])
  if record then -- no record: a deleted request's tombstone (the real script dead-letters unexplained ones)
    redis.call('ZADD', KEYS[6], exp, p[1])
    redis.call('HSET', KEYS[7], p[1], clientKey .. '|' .. p[2])
    out[#out + 1] = p[1]; out[#out + 1] = p[2]; out[#out + 1] = record
  end
end
return out
`;

// Marks locked requests handled. ARGV 1..5 handled-store settings, ARGV[6] clientKey, then ids.
export const C_HANDLE = HANDLED + `
local n = 0
for i = 7, #ARGV do
  local id = ARGV[i]
  local record = redis.call('HGET', KEYS[2], id)
  if record then
    redis.call('ZREM', KEYS[6], id)
    redis.call('HDEL', KEYS[7], id)
    redis.call('HDEL', KEYS[2], id)
    handledAdd(id, record, KEYS[8])
    n = n + 1
  end
end
handledSave()
redis.call('HINCRBY', KEYS[1], 'pending', -n)
redis.call('HINCRBY', KEYS[1], 'handled', n)
return n
`;

// Layout B, one sorted set: KEYS 1 meta, 2 data, 3 avail (ZSET id -> order). ARGV pairs id, record.
export const B_ADD = `
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local res = {}
for i = 1, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1]) == 1 then
    seq = seq + 1
    redis.call('ZADD', KEYS[3], seq, ARGV[i]); res[#res + 1] = 0
  else res[#res + 1] = 1 end
end
redis.call('HSET', KEYS[1], 'seq', seq)
return res
`;

// Layout D, buckets: the dedup index as linear-hashed listpack hashes (field id, value = queue position), the records
// in LIST buckets of 128 by position (<tag>:q:<pos div 128>, element = id .. record). Memory only: how far bucketing
// goes below layout C. ARGV 1..5 handled-store settings (mode 'key' for the index), then pairs id, record.
export const D_ADD = HANDLED + `
local pos = tonumber(redis.call('HGET', KEYS[1], 'pos') or '0')
local res = {}
for i = 6, #ARGV, 2 do
  local id = ARGV[i]
  lhLoad()
  local b = lhBucket(h62(id))
  if redis.call('HSETNX', b, id, pos) == 1 then
    lhN = lhN + 1
    if lhN > LOAD * (2 ^ lhL + lhS) then lhSplit() end
    redis.call('RPUSH', TAG .. ':q:' .. math.floor(pos / 128), id .. ARGV[i + 1])
    pos = pos + 1
    res[#res + 1] = 0
  else res[#res + 1] = 1 end
end
handledSave()
redis.call('HSET', KEYS[1], 'pos', pos)
return res
`;

// Layout D, buckets, with its lock and handle scripts. One index for dedup of pending and handled requests:
// <tag>:ix:<b> listpack hashes (linear hashing, see HANDLED's lh* functions), field = id, value = state:
//   'q<pos>'  FIFO pending at position pos; record in LIST <tag>:q:<pos div 128>, element = id .. record
//   'f<h>'    forefront pending at stack height h; record in LIST <tag>:f:<h div 128>, element = id .. fseq .. ' ' .. record
//   'l'       locked or returned; KEYS[2] held HASH id -> owner '|' order '|' record
//   ''        handled ('key'); 'h' handled ('request', record in KEYS[5] done); 'bits' drops the entry, sets Bloom bits
// KEYS 1 meta, 2 held, 3 back (ZSET id -> original order), 4 locks (ZSET id -> expiry), 5 done.
const D_COMMON = HANDLED + `
local QB = 128
local m = redis.call('HMGET', KEYS[1], 'pos', 'fhead', 'fh', 'fseq')
local pos, fhead, fh, fseq = tonumber(m[1] or '0'), tonumber(m[2] or '0'), tonumber(m[3] or '0'), tonumber(m[4] or '0')
local function saveD() redis.call('HSET', KEYS[1], 'pos', pos, 'fhead', fhead, 'fh', fh, 'fseq', fseq); handledSave() end
local function ixKey(id) lhLoad(); return lhBucket(h62(id)) end
local function ixSet(id, v)
  if redis.call('HSET', ixKey(id), id, v) == 1 then
    lhN = lhN + 1
    if lhN > LOAD * (2 ^ lhL + lhS) then lhSplit() end
  end
end
local function ixDel(id) if redis.call('HDEL', ixKey(id), id) == 1 then lhN = lhN - 1 end end
`;

// ARGV 1..5 handled-store settings, 6 forefront, then pairs id, record. Codes: 0 added, 1 pending, 2 handled.
export const D2_ADD = D_COMMON + `
local forefront = ARGV[6] == '1'
local res, added = {}, 0
for i = 7, #ARGV, 2 do
  local id, record = ARGV[i], ARGV[i + 1]
  local v = redis.call('HGET', ixKey(id), id)
  if v then
    if v == '' or v == 'h' then res[#res + 1] = 2 else res[#res + 1] = 1 end
  elseif MODE == 'bits' and handledHas(id, KEYS[5]) then res[#res + 1] = 2
  else
    if forefront then
      fseq = fseq + 1
      redis.call('RPUSH', TAG .. ':f:' .. math.floor(fh / QB), id .. fseq .. ' ' .. record)
      ixSet(id, 'f' .. fh)
      fh = fh + 1
    else
      redis.call('RPUSH', TAG .. ':q:' .. math.floor(pos / QB), id .. record)
      ixSet(id, 'q' .. pos)
      pos = pos + 1
    end
    added = added + 1
    res[#res + 1] = 0
  end
end
saveD()
if added > 0 then redis.call('HINCRBY', KEYS[1], 'pending', added); redis.call('HINCRBY', KEYS[1], 'total', added) end
return res
`;

// ARGV 1..5 handled-store settings, 6 limit, 7 lock ms, 8 clientKey, 9 max expired locks recovered.
// Returns id, order, record triples. Orders: forefront -fseq (newest first), FIFO pos + 1 (> 0), returned: original.
export const D2_LOCK = D_COMMON + NOW + `
local limit, lockMs, clientKey = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8]
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, tonumber(ARGV[9]))) do
  local info = redis.call('HGET', KEYS[2], id)
  local order, record = string.match(info, '^[^|]*|([^|]*)|(.*)$')
  redis.call('HSET', KEYS[2], id, '|' .. order .. '|' .. record)
  redis.call('ZADD', KEYS[3], tonumber(order), id)
  redis.call('ZREM', KEYS[4], id)
end
-- Tops of the three sources; empty buckets (every element removed) are skipped once, the pointers only move on.
local function frontTop()
  while fh > 0 do
    local k = math.floor((fh - 1) / QB)
    local el = redis.call('LINDEX', TAG .. ':f:' .. k, -1)
    if el then
      local seqs, record = string.match(string.sub(el, 16), '^(%d+) (.*)$')
      return { id = string.sub(el, 1, 15), order = -tonumber(seqs), record = record, key = TAG .. ':f:' .. k, src = 'f' }
    end
    fh = k * QB
  end
end
local function fifoTop()
  while fhead < pos do
    local k = math.floor(fhead / QB)
    local el = redis.call('LINDEX', TAG .. ':q:' .. k, 0)
    if el then
      local id = string.sub(el, 1, 15)
      local p = tonumber(string.sub(redis.call('HGET', ixKey(id), id), 2))
      return { id = id, order = p + 1, record = string.sub(el, 16), key = TAG .. ':q:' .. k, src = 'q', p = p }
    end
    fhead = (k + 1) * QB
  end
end
local function backTop()
  local b = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  if b[1] then return { id = b[1], order = tonumber(b[2]), src = 'b' } end
end
local out = {}
local exp = now + lockMs
local f, q, b = frontTop(), fifoTop(), backTop()
while #out < 3 * limit do
  local best = f
  if q and (not best or q.order < best.order) then best = q end
  if b and (not best or b.order < best.order) then best = b end
  if not best then break end
  local record = best.record
  if best.src == 'f' then
    redis.call('RPOP', best.key)
    fh = tonumber(string.sub(redis.call('HGET', ixKey(best.id), best.id), 2))
    f = frontTop()
  elseif best.src == 'q' then
    redis.call('LPOP', best.key)
    fhead = best.p + 1
    q = fifoTop()
  else
    redis.call('ZREM', KEYS[3], best.id)
    record = string.match(redis.call('HGET', KEYS[2], best.id), '^[^|]*|[^|]*|(.*)$')
    b = backTop()
  end
  ixSet(best.id, 'l')
  redis.call('HSET', KEYS[2], best.id, clientKey .. '|' .. best.order .. '|' .. record)
  redis.call('ZADD', KEYS[4], exp, best.id)
  out[#out + 1] = best.id; out[#out + 1] = best.order; out[#out + 1] = record
end
saveD()
return out
`;

// Marks locked requests handled. ARGV 1..5 handled-store settings, 6 clientKey, then ids.
export const D2_HANDLE = D_COMMON + `
local n = 0
for i = 7, #ARGV do
  local id = ARGV[i]
  local info = redis.call('HGET', KEYS[2], id)
  if info then
    local record = string.match(info, '^[^|]*|[^|]*|(.*)$')
    redis.call('HDEL', KEYS[2], id)
    redis.call('ZREM', KEYS[4], id)
    if MODE == 'key' then ixSet(id, '')
    elseif MODE == 'request' then ixSet(id, 'h'); redis.call('HSET', KEYS[5], id, record)
    else ixDel(id); handledAdd(id, record, KEYS[5]) end
    n = n + 1
  end
end
saveD()
redis.call('HINCRBY', KEYS[1], 'pending', -n)
redis.call('HINCRBY', KEYS[1], 'handled', n)
return n
`;

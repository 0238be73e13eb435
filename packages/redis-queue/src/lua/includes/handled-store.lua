-- The handled store: where a handled request goes once it leaves KEYS[2] data (which holds only unhandled requests),
-- in the queue's `handledRequests` mode (the one place that knows it). The mode and its parameters are in KEYS[1] meta, written once by
-- create-queue.lua (`hmode`; 'key' for a queue created before the option existed):
--   'request'  KEYS[12] done HASH id -> record with handledAt (read back by getRequest)
--   'key'      <tag>:ix:<b> HASH id -> '' : listpack buckets under linear hashing (docs/compact-frontier.md 3). The
--              bucket of an id comes from h = its first 5 characters read in base 62 (Crawlee's ids are base64 of
--              sha256 without '+/=', so uniform): b = h mod 2^L, and h mod 2^(L+1) when b < S. When the entry count
--              N passes load x (2^L + S), bucket S alone is split into S and S + 2^L, so both stay listpack, an
--              insert is O(load) at worst and the index is never rehashed as a whole. meta: hxL hxS hxN hxLoad.
--   'store'    nothing: the dedup store attached to the queue (docs/enqueue-filter-seam.md) is the record of handled
--              requests. Its op runs in every add (add-requests.lua refuses an add without one), so a request the
--              store has seen and the queue does not hold pending was enqueued before and is handled (or filtered).
--              Scripts that only have an id cannot tell a handled request from an unknown one here.
--   'bits'     <tag>:hb:<i> STRING Bloom blocks of hbBits bits (at most 2^32), hbK bits per id, hbBlocks blocks,
--              index scheme sha1-km64-v1 over the request id (the kit's bloom-bits fragment, as crawlee-bloom-dedup):
--              block = uint32be(sha1[16..20]) mod hbBlocks. Bits cannot be cleared (they are shared), so a handled
--              request cannot be un-marked; a false positive (rate from the sizing) reads as handled.
-- The bucket and block keys are built from the tag of KEYS[1] (same hash tag, so the same Cluster slot as every
-- declared key): the bucket of an id depends on L and S, which only the script can read consistently.
-- Callers that mark or unmark call handledSave() before they return (the index parameters go back to meta).
--- @include "bloom-bits"
--- @include "batch-call"

local HS_TAG = string.sub(KEYS[1], 1, #KEYS[1] - 5) -- KEYS[1] is '<tag>:meta'
local hs = nil
local HS_B62 = {}
do
  local alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  for i = 1, 62 do HS_B62[string.byte(alphabet, i)] = i - 1 end
end

local function hsLoad()
  if hs then return hs end
  -- createdAt, pending and handled come along (same HMGET) for scripts that write meta once at their end.
  local v = redis.call('HMGET', KEYS[1], 'hmode', 'hxL', 'hxS', 'hxN', 'hxLoad', 'hbBits', 'hbK', 'hbBlocks', 'createdAt', 'pending', 'handled')
  hs = {
    mode = v[1] or 'key', L = tonumber(v[2] or '0'), S = tonumber(v[3] or '0'), N = tonumber(v[4] or '0'),
    load = tonumber(v[5] or '48'), bits = tonumber(v[6] or '0'), k = tonumber(v[7] or '0'),
    blocks = tonumber(v[8] or '1'), dirty = false, offsets = {},
    createdAt = v[9], pending = v[10], handled = v[11],
  }
  return hs
end

-- The mode of this queue: 'request', 'key' or 'bits'.
local function handledMode() return hsLoad().mode end

local function hsH62(id)
  local h = 0
  for i = 1, 5 do h = h * 62 + (HS_B62[string.byte(id, i) or 0] or 0) end
  return h
end

local function hsBucket(h)
  local b = h % (2 ^ hs.L)
  if b < hs.S then b = h % (2 ^ (hs.L + 1)) end
  return HS_TAG .. ':ix:' .. string.format('%d', b)
end

-- Splits bucket S into S and S + 2^L (one DEL and at most two HSETs: both stay listpack).
local function hsSplit()
  local old = HS_TAG .. ':ix:' .. string.format('%d', hs.S)
  local all = redis.call('HGETALL', old)
  redis.call('DEL', old)
  hs.S = hs.S + 1
  local into = {}
  for i = 1, #all, 2 do
    local key = hsBucket(hsH62(all[i]))
    local args = into[key]
    if not args then args = {}; into[key] = args end
    args[#args + 1] = all[i]; args[#args + 1] = all[i + 1]
  end
  for key, args in pairs(into) do redis.call('HSET', key, unpack(args)) end
  if hs.S >= 2 ^ hs.L then hs.L = hs.L + 1; hs.S = 0 end
end

-- Block key and the k offsets of an id in 'bits' mode.
local function hsBits(id)
  local h = redis.sha1hex(id)
  local block = bloomModHex(h, 33, 40, hs.blocks)
  return HS_TAG .. ':hb:' .. string.format('%d', block), bloomOffsets(h, hs.bits, hs.k, hs.offsets)
end

-- True when `id` is in the handled store ('bits': probably; false positives at the sized rate).
local function isHandled(id)
  local s = hsLoad()
  if s.mode == 'request' then return redis.call('HEXISTS', KEYS[12], id) == 1 end
  if s.mode == 'store' then return false end
  if s.mode == 'bits' then
    local key, offsets = hsBits(id)
    return bloomCheck(key, offsets, s.k)
  end
  return redis.call('HEXISTS', hsBucket(hsH62(id)), id) == 1
end

-- Puts `id` into the handled store ('request' keeps `json`, the request with handledAt). The caller has just taken
-- it out of data.
local function markHandled(id, json)
  local s = hsLoad()
  if s.mode == 'request' then
    redis.call('HSET', KEYS[12], id, json)
  elseif s.mode == 'store' then
    return
  elseif s.mode == 'bits' then
    local key, offsets = hsBits(id)
    bloomCheckAndSet(key, offsets, s.k)
  elseif redis.call('HSET', hsBucket(hsH62(id)), id, '') == 1 then
    s.N = s.N + 1
    s.dirty = true
    if s.N > s.load * (2 ^ s.L + s.S) then hsSplit() end
  end
end

-- isHandled for many ids at once, one command per store structure instead of one per id ('request': one HMGET;
-- 'key': one HMGET per bucket touched; 'bits' and 'store' ask per id as isHandled does). Returns a table id -> true
-- for the ids in the store; a caller that marks or unmarks afterwards keeps its own record of those changes.
local function handledMany(ids)
  local s = hsLoad()
  local found = {}
  if #ids == 0 then return found end
  if s.mode == 'request' then
    local v = batchCall('HMGET', KEYS[12], ids)
    for i = 1, #ids do if v[i] then found[ids[i]] = true end end
  elseif s.mode == 'key' then
    local byBucket, order = {}, {}
    for i = 1, #ids do
      local key = hsBucket(hsH62(ids[i]))
      if not byBucket[key] then byBucket[key] = {}; order[#order + 1] = key end
      local list = byBucket[key]
      list[#list + 1] = ids[i]
    end
    for _, key in ipairs(order) do
      local list = byBucket[key]
      local v = batchCall('HMGET', key, list)
      for i = 1, #list do if v[i] then found[list[i]] = true end end
    end
  elseif s.mode == 'bits' then
    for i = 1, #ids do if isHandled(ids[i]) then found[ids[i]] = true end end
  end
  return found
end

-- markHandled for many requests at once (ids[i] with records[i]), as the same calls one by one would leave the
-- store: one HSET per structure ('request': done; 'key': per bucket, then the splits the new count asks for).
local function markHandledMany(ids, records)
  local s = hsLoad()
  if #ids == 0 or s.mode == 'store' then return end
  if s.mode == 'request' then
    local args = {}
    for i = 1, #ids do args[#args + 1] = ids[i]; args[#args + 1] = records[i] end
    batchCall('HSET', KEYS[12], args, 2)
  elseif s.mode == 'bits' then
    for i = 1, #ids do markHandled(ids[i], records[i]) end
  else
    local byBucket, order = {}, {}
    for i = 1, #ids do
      local key = hsBucket(hsH62(ids[i]))
      if not byBucket[key] then byBucket[key] = {}; order[#order + 1] = key end
      local list = byBucket[key]
      list[#list + 1] = ids[i]; list[#list + 1] = ''
    end
    local added = 0
    for _, key in ipairs(order) do added = added + batchCall('HSET', key, byBucket[key], 2) end
    if added > 0 then
      s.N = s.N + added
      s.dirty = true
      while s.N > s.load * (2 ^ s.L + s.S) do hsSplit() end
    end
  end
end

-- Takes `id` out of the handled store. Returns true when it was there; 'bits' cannot forget (false).
local function unmarkHandled(id)
  local s = hsLoad()
  if s.mode == 'request' then return redis.call('HDEL', KEYS[12], id) == 1 end
  if s.mode == 'bits' or s.mode == 'store' then return false end
  if redis.call('HDEL', hsBucket(hsH62(id)), id) == 1 then
    s.N = s.N - 1
    s.dirty = true
    return true
  end
  return false
end

-- Writes the index parameters back to meta when this script changed them.
local function handledSave()
  if hs and hs.dirty then redis.call('HSET', KEYS[1], 'hxL', hs.L, 'hxS', hs.S, 'hxN', hs.N) end
end

-- handledSave as fields appended to `args`, for a caller that writes meta with one HSET of its own.
local function handledSaveArgs(args)
  if hs and hs.dirty then
    args[#args + 1] = 'hxL'; args[#args + 1] = hs.L
    args[#args + 1] = 'hxS'; args[#args + 1] = hs.S
    args[#args + 1] = 'hxN'; args[#args + 1] = hs.N
    hs.dirty = false
  end
end

-- The stored record of a handled request, or false ('key' and 'bits' keep no record). O(1).
local function handledRecord(id)
  if hsLoad().mode ~= 'request' then return false end
  return redis.call('HGET', KEYS[12], id)
end

-- How many handled requests the store holds (for counters re-derived after a removal): 'request' counts its hash,
-- 'key' its index; 'bits' and 'store' cannot count, so the meta counter stands. O(1).
local function handledCount()
  local s = hsLoad()
  if s.mode == 'request' then return redis.call('HLEN', KEYS[12]) end
  if s.mode == 'key' then return s.N end
  return tonumber(redis.call('HGET', KEYS[1], 'handled') or '0')
end

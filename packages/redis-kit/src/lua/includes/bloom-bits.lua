-- Bloom filter bits, shared by crawlee-bloom-dedup's scripts and crawlee-redis-queue's add script (enqueue filter).
-- Index scheme sha1-km64-v1 (crawlee-bloom-dedup src/bloom/bit-indexes.ts computes the same numbers):
-- a = uint64be(hex[1..16]) mod m, b = uint64be(hex[17..32]) mod (m - 1) + 1, bit i = (a + i b) mod m, computed with
-- Horner's rule over 16-bit chunks so every intermediate stays below 2^49 (exact in Lua doubles).
local function bloomModHex(h, from, to, mod)
  local r = 0
  for i = from, to, 4 do
    r = (r * 65536 + tonumber(string.sub(h, i, i + 3), 16)) % mod
  end
  return r
end

-- Fills out[1..k] with the k bit offsets of a 40-hex digest in a block of m bits; returns out.
local function bloomOffsets(h, m, k, out)
  local x = bloomModHex(h, 1, 16, m)
  local b = bloomModHex(h, 17, 32, m - 1) + 1
  for i = 1, k do
    out[i] = x
    x = x + b
    if x >= m then x = x - m end
  end
  return out
end

-- Argument tables reused for every key (only the offsets change): a batch allocates nothing per key.
local bloomSetArgs, bloomGetArgs = {}, {}

-- Sets the first n offsets of `offsets` in `key` with ONE BITFIELD, which answers the old bits: true when one was
-- 0 (the key is new). All bits end up 1 either way, so a key is never "new" twice.
local function bloomCheckAndSet(key, offsets, n)
  n = n or #offsets
  for i = 1, n do
    bloomSetArgs[4 * i - 3] = 'SET'; bloomSetArgs[4 * i - 2] = 'u1'; bloomSetArgs[4 * i - 1] = offsets[i]; bloomSetArgs[4 * i] = 1
  end
  local old = redis.call('BITFIELD', key, unpack(bloomSetArgs, 1, 4 * n))
  for i = 1, n do
    if old[i] == 0 then return true end
  end
  return false
end

-- Read-only: true when every one of the first n offsets is 1 in `key` (probably seen).
local function bloomCheck(key, offsets, n)
  n = n or #offsets
  for i = 1, n do
    bloomGetArgs[3 * i - 2] = 'GET'; bloomGetArgs[3 * i - 1] = 'u1'; bloomGetArgs[3 * i] = offsets[i]
  end
  local bits = redis.call('BITFIELD', key, unpack(bloomGetArgs, 1, 3 * n))
  for i = 1, n do
    if bits[i] == 0 then return false end
  end
  return true
end

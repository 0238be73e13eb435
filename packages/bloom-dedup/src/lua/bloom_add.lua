--[[
  bloom_add: atomically test-and-set the k bits of every key of a batch (Bloom filter, index scheme sha1-km64-v1).
  A key is new when at least one of its bits was 0; all k bits are set either way (so no "new k times" bug).

  KEYS[1 .. #KEYS - c]  block keys (Redis strings of ARGV[1] bits) used by this batch
  KEYS[#KEYS]           when ARGV[3] ~= '': the counter hash (c = 1), HINCRBY ARGV[3] by the number of new keys
  ARGV[1]               blockBits, bits per block (<= 2^32)
  ARGV[2]               hashes, k
  ARGV[3]               counter field name, or '' for no counter
  ARGV[4 + 2j]          1-based index into KEYS of the block holding key j (j = 0 ..)
  ARGV[5 + 2j]          key j's digest: 40 lowercase hex chars
  Returns an array with 1 (new) or 0 (seen) per key.

  Offsets: a = uint64be(hex[1..16]) mod m, b = uint64be(hex[17..32]) mod (m - 1) + 1, bit i = (a + i b) mod m,
  computed with Horner's rule over 16-bit chunks so every intermediate stays below 2^49 (exact in Lua doubles).
]]
local m = tonumber(ARGV[1])
local k = tonumber(ARGV[2])
local counterField = ARGV[3]

local function modhex(h, from, to, mod)
  local r = 0
  for i = from, to, 4 do
    r = (r * 65536 + tonumber(string.sub(h, i, i + 3), 16)) % mod
  end
  return r
end

-- One argument table reused for every key: only the offsets change.
local args = {}
for i = 0, k - 1 do
  args[4 * i + 1] = 'SET'
  args[4 * i + 2] = 'u1'
  args[4 * i + 4] = 1
end

local results = {}
local added = 0
local n = (#ARGV - 3) / 2
for j = 0, n - 1 do
  local key = KEYS[tonumber(ARGV[4 + 2 * j])]
  local h = ARGV[5 + 2 * j]
  local x = modhex(h, 1, 16, m)
  local b = modhex(h, 17, 32, m - 1) + 1
  for i = 0, k - 1 do
    -- An integer below 2^32 converts to its plain decimal form when passed to redis.call.
    args[4 * i + 3] = x
    x = x + b
    if x >= m then x = x - m end
  end
  local old = redis.call('BITFIELD', key, unpack(args))
  local new = 0
  for i = 1, k do
    if old[i] == 0 then new = 1; break end
  end
  results[j + 1] = new
  added = added + new
end
if counterField ~= '' and added > 0 then
  redis.call('HINCRBY', KEYS[#KEYS], counterField, added)
end
return results

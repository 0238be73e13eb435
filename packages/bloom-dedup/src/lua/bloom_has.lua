--[[
  bloom_has: read-only membership test of a batch of keys (Bloom filter, index scheme sha1-km64-v1).

  KEYS[1 ..]    block keys used by this batch
  ARGV[1]       blockBits, bits per block (<= 2^32)
  ARGV[2]       hashes, k
  ARGV[3 + 2j]  1-based index into KEYS of the block holding key j (j = 0 ..)
  ARGV[4 + 2j]  key j's digest: 40 lowercase hex chars
  Returns an array with 1 (every bit set: probably seen) or 0 (not seen) per key.
  Offsets as in bloom_add.lua.
]]
local m = tonumber(ARGV[1])
local k = tonumber(ARGV[2])

local function modhex(h, from, to, mod)
  local r = 0
  for i = from, to, 4 do
    r = (r * 65536 + tonumber(string.sub(h, i, i + 3), 16)) % mod
  end
  return r
end

local args = {}
for i = 0, k - 1 do
  args[3 * i + 1] = 'GET'
  args[3 * i + 2] = 'u1'
end

local results = {}
local n = (#ARGV - 2) / 2
for j = 0, n - 1 do
  local key = KEYS[tonumber(ARGV[3 + 2 * j])]
  local h = ARGV[4 + 2 * j]
  local x = modhex(h, 1, 16, m)
  local b = modhex(h, 17, 32, m - 1) + 1
  for i = 0, k - 1 do
    args[3 * i + 3] = x
    x = x + b
    if x >= m then x = x - m end
  end
  local bits = redis.call('BITFIELD', key, unpack(args))
  local seen = 1
  for i = 1, k do
    if bits[i] == 0 then seen = 0; break end
  end
  results[j + 1] = seen
end
return results

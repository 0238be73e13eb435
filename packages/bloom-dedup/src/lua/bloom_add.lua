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

  Offsets: the kit's bloom-bits fragment (index scheme sha1-km64-v1).
]]
--- @include "bloom-bits"
--- @include "reply-codes"
local m = tonumber(ARGV[1])
local k = tonumber(ARGV[2])
local counterField = ARGV[3]

local offsets = {}
local results = {}
local added = 0
local n = (#ARGV - 3) / 2
for j = 0, n - 1 do
  local key = KEYS[tonumber(ARGV[4 + 2 * j])]
  local new = KEY_SEEN
  if bloomCheckAndSet(key, bloomOffsets(ARGV[5 + 2 * j], m, k, offsets), k) then new = KEY_NEW end
  results[j + 1] = new
  added = added + new
end
if counterField ~= '' and added > 0 then
  redis.call('HINCRBY', KEYS[#KEYS], counterField, added)
end
return results

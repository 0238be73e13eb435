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

  Offsets: the kit's bloom-bits fragment (index scheme sha1-km64-v1); the batch loop: includes/bloom-batch.lua.
]]
--- @include "bloom-batch"
--- @include "reply-codes"
local counterField = ARGV[3]

local results, added = bloomEachKey(4, tonumber(ARGV[1]), tonumber(ARGV[2]), bloomCheckAndSet, KEY_NEW, KEY_SEEN)
if counterField ~= '' and added > 0 then
  redis.call('HINCRBY', KEYS[#KEYS], counterField, added)
end
return results

--[[
  bloom_has: read-only membership test of a batch of keys (Bloom filter, index scheme sha1-km64-v1).

  KEYS[1 ..]    block keys used by this batch
  ARGV[1]       blockBits, bits per block (<= 2^32)
  ARGV[2]       hashes, k
  ARGV[3 + 2j]  1-based index into KEYS of the block holding key j (j = 0 ..)
  ARGV[4 + 2j]  key j's digest: 40 lowercase hex chars
  Returns an array with 1 (every bit set: probably seen) or 0 (not seen) per key.
  Offsets: the kit's bloom-bits fragment (index scheme sha1-km64-v1); the batch loop: includes/bloom-batch.lua.
]]
--- @include "bloom-batch"
--- @include "reply-codes"
return bloomEachKey(3, tonumber(ARGV[1]), tonumber(ARGV[2]), bloomCheck, HAS_PRESENT, HAS_ABSENT)

-- The batch loop of bloom_add and bloom_has: ARGV from index `first` on holds one pair per key j,
--   ARGV[first + 2j]      1-based index into KEYS of the block holding key j
--   ARGV[first + 1 + 2j]  key j's digest: 40 lowercase hex chars
-- and `probe(blockKey, offsets, k)` (bloomCheckAndSet or bloomCheck) answers for the key's k bits in its block.
-- Returns the reply per key (`yes` where probe answered true, else `no`) and how many answered true.
--- @include "bloom-bits"
local function bloomEachKey(first, m, k, probe, yes, no)
  local offsets = {} -- reused for every key: a batch allocates nothing per key
  local results = {}
  local hits = 0
  local n = (#ARGV - first + 1) / 2
  for j = 0, n - 1 do
    local key = KEYS[tonumber(ARGV[first + 2 * j])]
    if probe(key, bloomOffsets(ARGV[first + 1 + 2 * j], m, k, offsets), k) then
      results[j + 1] = yes
      hits = hits + 1
    else
      results[j + 1] = no
    end
  end
  return results, hits
end

--[[
  Test-only stand-in for the filter part of crawlee-redis-queue's add script, applying a plan exactly as
  docs/enqueue-filter-seam.md says, with the same Bloom fragment the real script includes: 'bits' sets every offset
  and is new when one was 0; 'member' SADD 1 = new, 0 = filtered; the counter hash gets newField / filteredField
  HINCRBYed (skipped when zero). One EVAL, so it is atomic like the real script.

  KEYS[1..]  plan.keys
  ARGV[1]    counter key index, 1-based (0 = none)
  ARGV[2]    newField
  ARGV[3]    filteredField
  ARGV[4..]  per op: type, 1-based key index, then for 'bits': n and n offsets; for 'member': the member
  Returns 1 (new) / 0 (filtered) per op.
]]
--- @include "bloom-bits"
local counterKey = tonumber(ARGV[1])
local newField, filteredField = ARGV[2], ARGV[3]
local i = 4
local results, added, filtered = {}, 0, 0
while i <= #ARGV do
  local kind, key = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
  local isNew = 0
  if kind == 'bits' then
    local n = tonumber(ARGV[i + 2])
    local offsets = {}
    for j = 1, n do offsets[j] = ARGV[i + 2 + j] end
    if bloomCheckAndSet(key, offsets, n) then isNew = 1 end
    i = i + 3 + n
  else
    isNew = redis.call('SADD', key, ARGV[i + 2])
    i = i + 3
  end
  results[#results + 1] = isNew
  if isNew == 1 then added = added + 1 else filtered = filtered + 1 end
end
if counterKey > 0 then
  if added > 0 then redis.call('HINCRBY', KEYS[counterKey], newField, added) end
  if filtered > 0 then redis.call('HINCRBY', KEYS[counterKey], filteredField, filtered) end
end
return results

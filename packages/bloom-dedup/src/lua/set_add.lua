--[[
  set_add: exact dedup, SADD of each key with a per-key answer (scrapy-redis RFPDupeFilter's set layout).

  KEYS[1]  the set (e.g. '<spider>:dupefilter')
  KEYS[2]  counter hash in the same slot (only read when ARGV[1] ~= '')
  ARGV[1]  counter field name, or '' for no counter
  ARGV[2 ..] members
  Returns an array with 1 (new) or 0 (seen) per member.
]]
local results = {}
local added = 0
for i = 2, #ARGV do
  local r = redis.call('SADD', KEYS[1], ARGV[i])
  results[i - 1] = r
  added = added + r
end
if ARGV[1] ~= '' and added > 0 then
  redis.call('HINCRBY', KEYS[2], ARGV[1], added)
end
return results

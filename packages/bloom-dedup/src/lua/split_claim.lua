--[[
  split_claim: records that a Redis dedup store is split into one part per shard of a sharded queue (each part in
  its shard's hash tag), or checks the split already recorded. Never converts a store that holds keys unsplit: its
  keys would be in the wrong parts (false negatives), so the caller is told and nothing is written.

  KEYS[1]  the store's root hash (Bloom: its meta hash; exact set: its stats hash); the split is recorded here
  KEYS[2]  the unsplit data key that must not exist (exact set: the set itself), or KEYS[1] again (Bloom: the
           counters of the root hash tell whether the unsplit filter holds keys)
  ARGV[1]  parts: the shard count S
  ARGV[2]  shardBy: 'host' or 'uniqueKey'
  ARGV[3]  the S part hash tags as a JSON array
  Returns { code, parts, shardBy, tags, itemsAdded } with code SPLIT_MATCHED (the same split was recorded),
  SPLIT_RECORDED (recorded now), SPLIT_OTHER_LAYOUT (another split is recorded: its parts, shardBy and tags are
  returned) or SPLIT_UNSPLIT_IN_USE (the unsplit store holds keys: itemsAdded, or -1 for a non-empty set).
]]
--- @include "reply-codes"
local recorded = redis.call('HMGET', KEYS[1], 'parts', 'shardBy', 'partTags', 'itemsAdded', 'filtered')
if recorded[1] then
  if recorded[1] == ARGV[1] and recorded[2] == ARGV[2] and recorded[3] == ARGV[3] then
    return { SPLIT_MATCHED, recorded[1], recorded[2], recorded[3], 0 }
  end
  return { SPLIT_OTHER_LAYOUT, recorded[1], tostring(recorded[2]), tostring(recorded[3]), 0 }
end
local items = tonumber(recorded[4] or '0') or 0
local filtered = tonumber(recorded[5] or '0') or 0
if items > 0 or filtered > 0 then
  return { SPLIT_UNSPLIT_IN_USE, '1', '', '', items }
end
if KEYS[2] ~= KEYS[1] and redis.call('EXISTS', KEYS[2]) == 1 then
  return { SPLIT_UNSPLIT_IN_USE, '1', '', '', -1 }
end
redis.call('HSET', KEYS[1], 'parts', ARGV[1], 'shardBy', ARGV[2], 'partTags', ARGV[3])
return { SPLIT_RECORDED, ARGV[1], ARGV[2], ARGV[3], 0 }

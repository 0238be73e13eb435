--[[
  meta_open: create or check the parameters stored next to a Bloom filter.
  On a new filter: writes every field and zeroes the counters. On an existing one: each compared field must be
  equal, else INCOMPATIBLE_FILTER. The fingerprint recipe is compared only when both sides know it. A hash without
  the first compared field (`bits`) holds only counters (an add path of an older version bumped them before any
  open wrote the parameters): it is completed like a new one, its counters kept.

  KEYS[1]              meta hash
  ARGV[1]              number c of compared fields
  ARGV[2 .. 2c+1]      compared pairs: field, value
  ARGV[2c+2]           fingerprint recipe, or ''
  ARGV[2c+3 ..]        informational pairs written only on creation: field, value
  Returns 1 when created, 0 when an existing compatible filter was opened, 2 (nothing written) when the hash records
  a split filter (field `parts`, see split_claim.lua): the store then opens its parts instead.
  Errors: 'INCOMPATIBLE_FILTER <field> <stored> <requested>'.
]]
--- @include "reply-codes"
if redis.call('HEXISTS', KEYS[1], 'parts') == 1 then return OPEN_SPLIT end
local c = tonumber(ARGV[1])
local recipe = ARGV[2 * c + 2]
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then
  for i = 0, c - 1 do
    local field = ARGV[2 + 2 * i]
    local want = ARGV[3 + 2 * i]
    local have = redis.call('HGET', KEYS[1], field)
    if have ~= want then
      return redis.error_reply(ERR_INCOMPATIBLE_FILTER .. ' ' .. field .. ' ' .. tostring(have) .. ' ' .. want)
    end
  end
  local stored = redis.call('HGET', KEYS[1], 'recipe')
  if recipe ~= '' then
    if stored and stored ~= '' and stored ~= recipe then
      return redis.error_reply(ERR_INCOMPATIBLE_FILTER .. ' recipe ' .. stored .. ' ' .. recipe)
    end
    if not stored or stored == '' then redis.call('HSET', KEYS[1], 'recipe', recipe) end
  end
  return OPEN_EXISTED
end
local fields = {}
for i = 2, #ARGV do
  if i ~= 2 * c + 2 then fields[#fields + 1] = ARGV[i] end
end
redis.call('HSET', KEYS[1], 'recipe', recipe, unpack(fields))
redis.call('HSETNX', KEYS[1], 'itemsAdded', 0)
redis.call('HSETNX', KEYS[1], 'filtered', 0)
return OPEN_CREATED

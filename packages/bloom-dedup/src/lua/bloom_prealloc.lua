--[[
  bloom_prealloc: allocate a block's whole string once, so memory is predictable (no repeated reallocations).
  Never clears a bit: the last bit is written only while the string is shorter than the block, i.e. while it is 0.

  KEYS[1]  block key
  ARGV[1]  blockBits (a multiple of 8, <= 2^32)
  Returns the string length in bytes afterwards. WRONGTYPE when something else lives at the key.
]]
local bits = tonumber(ARGV[1])
if redis.call('STRLEN', KEYS[1]) < bits / 8 then
  redis.call('SETBIT', KEYS[1], string.format('%.0f', bits - 1), 0)
end
return redis.call('STRLEN', KEYS[1])

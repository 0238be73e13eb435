-- One variadic command over many arguments, in as few calls as Lua's stack allows (unpack of a few thousand values at
-- most): Redis counts a variadic command once whatever its arguments, so a script that collects a batch's arguments
-- and sends them together costs one command per structure, not one per request. `width` keeps argument groups
-- (field and value, score and member) whole. Returns the replies concatenated (tables) or summed (integers).
local BATCH_CALL_MAX = 4000
local function batchCall(cmd, key, args, width)
  local n = #args
  if n == 0 then return nil end
  if n <= BATCH_CALL_MAX then return redis.call(cmd, key, unpack(args)) end
  local step = BATCH_CALL_MAX - BATCH_CALL_MAX % (width or 1)
  local out, sum = nil, 0
  for from = 1, n, step do
    local r = redis.call(cmd, key, unpack(args, from, math.min(n, from + step - 1)))
    if type(r) == 'table' then
      out = out or {}
      for i = 1, #r do out[#out + 1] = r[i] end
    else
      sum = sum + r
    end
  end
  return out or sum
end

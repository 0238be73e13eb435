-- A numeric field of the queue's meta hash (KEYS[1]): nil when absent, else its number, or an RQ_META_CORRUPT
-- error reply naming the key, the field and what it holds (another writer or a manual HSET stored something else):
-- a tonumber() nil would otherwise end a reply array early or fail later as a bare Lua error. Needs the script to
-- include "reply-codes" (ERR_META_CORRUPT).
local function metaNumber(field, raw)
  if raw == false or raw == nil then return nil end
  local n = tonumber(raw)
  if n == nil or n ~= n or n == math.huge or n == -math.huge then
    error({ err = ERR_META_CORRUPT .. ' ' .. KEYS[1] .. ' field "' .. field .. '" holds "' .. string.sub(tostring(raw), 1, 40) .. '"' })
  end
  return n
end

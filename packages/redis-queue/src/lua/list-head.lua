--[[
  Lists up to `limit` unhandled requests in queue order, locked ones included (Crawlee's legacy isFinished path and
  debugging). Read-only.

  KEYS[1] meta, KEYS[2] data, KEYS[3] pending (see add-requests.lua)

  ARGV[1] limit

  Returns { modifiedAt (ms or ''), hadMultipleClients (0|1), id1, json1, ... } (json is '' when data is missing)
]]
local limit = tonumber(ARGV[1])
local out = { redis.call('HGET', KEYS[1], 'modifiedAt') or '', redis.call('HEXISTS', KEYS[1], 'multipleClients') }
if limit <= 0 then return out end
local ids = redis.call('ZRANGE', KEYS[3], 0, limit - 1)
for _, id in ipairs(ids) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
end
return out

-- Redis time in ms: TIME inside the script, never a worker's clock (contract 2), plus the tests-only clock offset
-- argument ('0' otherwise).
local function redisNowMs(offsetMs)
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(offsetMs)
end

-- "Is this stored request pending (available or locked)?", in one spot: KEYS[2] data holds only unhandled requests
-- (layout C, includes/queue-order.lua), so a request in
-- data is pending wherever its place is (a list, back, held, or a polite host queue).
local function isPending(id)
  return redis.call('HEXISTS', KEYS[2], id) == 1
end

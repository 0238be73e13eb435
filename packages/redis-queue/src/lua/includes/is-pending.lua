-- "Is this stored request pending (available or locked)?", in one spot: the pending layout (today the KEYS[3]
-- pending sorted set) changes with the compact frontier, and every handled-store check asks only this.
local function isPending(id)
  return redis.call('ZSCORE', KEYS[3], id) ~= false
end

--[[
  Releases every listed lock the caller still owns (a worker shutting down), each back at its original queue order,
  so other workers take the requests at once instead of after the lock expiry. Locks owned by others are left alone.

  KEYS[1..12] the queue's keys (see add-requests.lua)

  ARGV[1] clientKey of the caller
  ARGV[2..] request ids

  Returns the number of locks released.
]]
--- @include "queue-order"
local released = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  if redis.call('HGET', KEYS[6], id) == ARGV[1] and releaseLock(id) then released = released + 1 end
end
return released

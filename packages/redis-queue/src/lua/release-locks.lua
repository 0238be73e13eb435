--[[
  Releases every listed lock the caller still owns (a worker shutting down), each back at its original queue order,
  so other workers take the requests at once instead of after the lock expiry. Locks owned by others are left alone.

  KEYS[1..12] the queue's keys (see add-requests.lua)

  ARGV[1] clientKey of the caller
  ARGV[2] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[3..] request ids

  On a polite queue each lock's host gets its slot back and the request returns to its host's queue.

  Returns the number of locks released.
]]
--- @include "queue-order"
--- @include "redis-time"
--- @include "polite"
local released = 0
local now = redisNowMs(ARGV[2])
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('HGET', KEYS[6], id) == ARGV[1] then
    if politeReleaseLock(id, now, 0, nil) or releaseLock(id) then released = released + 1 end
  end
end
return released

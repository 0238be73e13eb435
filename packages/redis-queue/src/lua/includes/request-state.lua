-- Where request `id` is, in one step every add, update and requeue asks first:
--   'pending'  stored in KEYS[2] data and pending (available or locked)
--   'legacy'   stored in data but not pending: handled, written before handled requests left data (0.1)
--   'handled'  in the handled store of the queue's mode (includes/handled-store.lua)
--   nil        unknown
--- @include "is-pending"
--- @include "handled-store"
local function requestState(id)
  if redis.call('HEXISTS', KEYS[2], id) == 1 then
    if isPending(id) then return 'pending' end
    return 'legacy'
  end
  if isHandled(id) then return 'handled' end
  return nil
end

-- Where request `id` is, in one step every add, update and requeue asks first:
--   'pending'  stored in KEYS[2] data (available or locked; data holds only unhandled requests)
--   'handled'  in the handled store of the queue's mode (includes/handled-store.lua)
--   nil        unknown
--- @include "is-pending"
--- @include "handled-store"
local function requestState(id)
  if isPending(id) then return 'pending' end
  if isHandled(id) then return 'handled' end
  return nil
end

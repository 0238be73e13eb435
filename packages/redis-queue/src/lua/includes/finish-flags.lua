-- The flags every lock script returns first (request-queue contract 5, docs/contract.md): out[1] queueHasLockedRequests while any lock or
-- live producer lease exists or `keepOpen` (politeness: requests that wait for their host or not-before time),
-- out[2] hadMultipleClients, out[4] modifiedAt; records the first client and whether another one locked since.
-- `took`: whether this call locked anything. Keys as in list-and-lock-head.lua (KEYS[14] producer leases).
-- `pre` (optional): meta's firstClient, multipleClients and modifiedAt as the caller read them earlier in the same
-- script (one HMGET for all of them), as { first, multiple, modifiedAt }; without it they are read here.
--- @include "queue-gone"
local function finishFlags(out, now, clientKey, took, keepOpen, pre)
  local multiple = nil
  if pre then multiple = pre.multiple end
  if took then
    local first
    if pre then first = pre.first else first = redis.call('HGET', KEYS[1], 'firstClient') end
    if not first then
      redis.call('HSET', KEYS[1], 'firstClient', clientKey)
    elseif first ~= clientKey and not (pre and multiple) then
      redis.call('HSETNX', KEYS[1], 'multipleClients', 1)
      if pre then multiple = '1' end
    end
  end
  -- A call that locked something knows a lock exists.
  if keepOpen or took or redis.call('ZCARD', KEYS[5]) > 0 then out[1] = 1 end
  -- A live producer lease keeps the queue open like a lock does (a producer adding without holding a lock); expired
  -- leases (a dead producer) are pruned first. O(log N + expired) on the lease set, which is tiny.
  if out[1] == 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[14], '-inf', now)
    if redis.call('ZCARD', KEYS[14]) > 0 then out[1] = 1 end
  end
  if pre then
    if multiple then out[2] = 1 end
    out[4] = pre.modifiedAt or ''
  else
    if redis.call('HEXISTS', KEYS[1], 'multipleClients') == 1 then out[2] = 1 end
    out[4] = redis.call('HGET', KEYS[1], 'modifiedAt') or ''
  end
  -- Every opened queue's meta has modifiedAt (create-queue.lua): none on a call that found nothing means the queue
  -- is gone, which must not read as a finished crawl (a read this call makes anyway: no command more).
  if out[4] == '' and not took then return queueGone() end
  return out
end

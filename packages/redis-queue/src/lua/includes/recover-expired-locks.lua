-- The recover step of the lock scripts (list-and-lock-head.lua, list-and-lock-head-polite.lua; DESIGN contract 4
-- and the stalls rule described in list-and-lock-head.lua): returns up to `limit` expired locks, each through
-- `release(id)` (back to where its script keeps available requests), or dead-letters a request that reached
-- `maxStalls` stalls, after which `dropped(id)` lets the script free what the lock held (a polite host slot).
-- Needs the include queue-order (unplace, recountAfterRemoval); keys as in list-and-lock-head.lua (KEYS[13] stalls,
-- KEYS[15] suspects). O(recovered): one HINCRBY per started expired lock, no scan.
local function recoverExpiredLocks(now, limit, maxStalls, release, dropped)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
  for i = 1, #expired, 2 do
    local id, score = expired[i], tonumber(expired[i + 1])
    local stalls = 0
    if maxStalls > 0 and score ~= math.floor(score) then stalls = redis.call('HINCRBY', KEYS[13], id, 1) end
    if maxStalls > 0 then
      -- The owner lets go of this lock here: if it was the owner's suspect, the owner may take another one.
      local holder = redis.call('HGET', KEYS[6], id)
      if holder and redis.call('HGET', KEYS[15], holder) == id then redis.call('HDEL', KEYS[15], holder) end
    end
    local raw = false
    if stalls >= maxStalls and stalls > 0 then raw = redis.call('HGET', KEYS[2], id) end
    if raw then
      dropped(id)
      unplace(id)
      redis.call('HDEL', KEYS[2], id)
      redis.call('HDEL', KEYS[13], id)
      recountAfterRemoval(0)
      redis.call('HSET', KEYS[7], id, raw)
      redis.call('HSET', KEYS[8], id, cjson.encode({
        reason = 'stalled: its lock expired ' .. stalls .. ' times while a worker was processing it (the worker died or '
          .. 'outran its lock each time; maxStalls is ' .. maxStalls .. ')',
        source = 'queue', at = now, stalls = stalls,
      }))
    else
      release(id)
    end
  end
end

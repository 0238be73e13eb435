-- The recover step of the lock scripts (list-and-lock-head.lua, list-and-lock-head-polite.lua; request-queue contract 4 in docs/contract.md
-- and the stalls rule described in list-and-lock-head.lua): looks at up to `limit` locks whose check time (their
-- score in KEYS[5]) has come. A lock whose owner's heartbeat is alive (KEYS[16], heartbeat.lua) is kept: its check
-- time moves to the owner's heartbeat expiry, the started mark kept, however long the owner works on it (worker
-- liveness, docs/liveness.md). Every other one returns through `release(id)` (back to where its script keeps
-- available requests), or is dead-lettered when it reached `maxStalls` stalls, after which `dropped(id)` lets the
-- script free what the lock held (a polite host slot). A lock whose owner's heartbeat lapsed counts one stall when
-- it was started, as any expired lock, and is counted in KEYS[1] meta `ownerGoneLocks`.
-- Needs the include queue-order (unplace, recountAfterRemoval); keys as in list-and-lock-head.lua (KEYS[13] stalls,
-- KEYS[15] suspects, KEYS[16] live). O(recovered): one HGET, one ZSCORE per distinct owner and one HINCRBY per
-- started expired lock, no scan.
local function recoverExpiredLocks(now, limit, maxStalls, release, dropped)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
  local beats = {}
  local ownerGone = 0
  for i = 1, #expired, 2 do
    local id, score = expired[i], tonumber(expired[i + 1])
    local holder = redis.call('HGET', KEYS[6], id)
    local beat = 0
    if holder and KEYS[16] then
      if beats[holder] == nil then beats[holder] = tonumber(redis.call('ZSCORE', KEYS[16], holder) or '0') end
      beat = beats[holder]
    end
    if beat > now then
      redis.call('ZADD', KEYS[5], beat + (score - math.floor(score)), id)
    else
      if beat > 0 then ownerGone = ownerGone + 1 end
      local stalls = 0
      if maxStalls > 0 and score ~= math.floor(score) then stalls = redis.call('HINCRBY', KEYS[13], id, 1) end
      -- The owner lets go of this lock here: if it was the owner's suspect, the owner may take another one.
      if maxStalls > 0 and holder and redis.call('HGET', KEYS[15], holder) == id then redis.call('HDEL', KEYS[15], holder) end
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
  if ownerGone > 0 then redis.call('HINCRBY', KEYS[1], 'ownerGoneLocks', ownerGone) end
end

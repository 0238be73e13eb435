--[[
  Migrates a queue written by 0.1 (meta without `format`; one JSON per request in data, handled ones included, and
  the `pending` / `avail` sorted sets) to format 2, one bounded batch per call, under a migration lock: of several
  workers opening the queue at once exactly one holds the lock (SET NX PX) and migrates, the others wait and take
  over when a migrator dies (its lock expires). Every batch is atomic and the progress is stored in meta, so a
  migrator killed between two batches leaves a queue the next opener finishes: nothing is lost or placed twice.

  Step 'handled' (the caller walks data with HSCAN and passes the ids it read; HSCAN returns every entry present for
  the whole walk): a 0.1 entry that is not in `pending` and holds handledAt is a handled request; it moves from
  data to the handled store of the queue's handledRequests mode (includes/handled-store.lua; data then holds only
  unhandled requests). The caller's next HSCAN cursor is stored in
  meta `migCursor`; cursor '0' ends the step (`migStep` = 'pending').
  Step 'pending': the lowest `batch` members of `pending` by 0.1 order move to their format-2 place, keeping the
  order. Forefront ones (order < 0) keep it: "<-order> <id>" at the tail of the forefront list (0.1's most negative
  first, so newest first). FIFO ones get the next FIFO position; a locked one (in locks) keeps its lock and owner
  and gets a held order just before the next FIFO position (0.5, 0.75, ... of the gap: `migK` counts them), so it
  returns between the same neighbours. When `pending` is empty: `avail` is deleted, `fseq` starts at 0.1's `seq`
  (new forefront requests come before every old one), `format` = 2 and the lock is released.
  The records stay 0.1 JSON (read for ever); counters, locks, owners, stalls and dead letters keep their keys.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] 0.1 pending (ZSET), KEYS[14] 0.1 avail (ZSET),
  KEYS[15] migration lock (STRING: owner token)

  ARGV[1] migration token of the caller
  ARGV[2] lock time in ms (renewed by every call)
  ARGV[3] batch size (pending members per call)
  ARGV[4] step of this call: 'handled' or 'pending' ('' to only read the state)
  ARGV[5] 'handled' step: the next HSCAN cursor; then ARGV[6..] the ids the caller read

  Returns { MIGRATE_DONE | MIGRATE_BUSY | MIGRATE_PROGRESS, step ('handled' | 'pending' | ''), cursor }
]]
--- @include "reply-codes"
--- @include "handled-store"
if redis.call('HGET', KEYS[1], 'format') == '2' or redis.call('EXISTS', KEYS[1]) == 0 then return { MIGRATE_DONE, '', '' } end
local token = ARGV[1]
local lock = redis.call('GET', KEYS[15])
if lock and lock ~= token then return { MIGRATE_BUSY, '', '' } end
redis.call('SET', KEYS[15], token, 'PX', tonumber(ARGV[2]))
local step = redis.call('HGET', KEYS[1], 'migStep') or 'handled'
local cursor = redis.call('HGET', KEYS[1], 'migCursor') or '0'
if ARGV[4] ~= step then return { MIGRATE_PROGRESS, step, cursor } end

if step == 'handled' then
  -- Handled requests go to the store of the mode create-queue.lua recorded for this queue (the opener's
  -- handledRequests). A migrator that runs before any open (none recorded) fixes the default, 'key', so a handled
  -- request is never marked in a mode the queue does not record.
  if redis.call('HSETNX', KEYS[1], 'hmode', 'key') == 1 then
    redis.call('HSET', KEYS[1], 'hxLoad', 48, 'hxL', 0, 'hxS', 0, 'hxN', 0)
  end
  for i = 6, #ARGV do
    local id = ARGV[i]
    local raw = redis.call('HGET', KEYS[2], id)
    -- Only a 0.1 entry (JSON) outside pending with handledAt is a handled request; anything else stays.
    if raw and string.sub(raw, 1, 1) == '{' and not redis.call('ZSCORE', KEYS[13], id)
      and string.find(raw, '"handledAt":"', 1, true) then
      markHandled(id, raw)
      redis.call('HDEL', KEYS[2], id)
    end
  end
  -- The 'key' index's parameters (entry count, splits) go back to meta with the batch.
  handledSave()
  if ARGV[5] == '0' then
    redis.call('HSET', KEYS[1], 'migStep', 'pending')
    redis.call('HDEL', KEYS[1], 'migCursor')
    return { MIGRATE_PROGRESS, 'pending', '0' }
  end
  redis.call('HSET', KEYS[1], 'migStep', 'handled', 'migCursor', ARGV[5])
  return { MIGRATE_PROGRESS, 'handled', ARGV[5] }
end

local members = redis.call('ZRANGE', KEYS[13], 0, tonumber(ARGV[3]) - 1, 'WITHSCORES')
local qhead = tonumber(redis.call('HGET', KEYS[1], 'qhead') or '0')
local k = tonumber(redis.call('HGET', KEYS[1], 'migK') or '0')
for i = 1, #members, 2 do
  local id, order = members[i], tonumber(members[i + 1])
  local locked = redis.call('ZSCORE', KEYS[5], id)
  if redis.call('HEXISTS', KEYS[2], id) == 0 then
    -- An order entry without data: 0.1's lock script would have dead-lettered it; it has no place to go.
  elseif order < 0 then
    if locked then redis.call('HSET', KEYS[10], id, order) else redis.call('RPUSH', KEYS[4], (-order) .. ' ' .. id) end
  elseif locked then
    k = k + 1
    redis.call('HSET', KEYS[10], id, qhead + redis.call('LLEN', KEYS[3]) + 1 - 0.5 ^ k)
  else
    redis.call('RPUSH', KEYS[3], id)
    k = 0
  end
  redis.call('ZREM', KEYS[13], id)
  redis.call('ZREM', KEYS[14], id)
end
redis.call('HSET', KEYS[1], 'migK', k)
if redis.call('ZCARD', KEYS[13]) > 0 then return { MIGRATE_PROGRESS, 'pending', '' } end
redis.call('DEL', KEYS[14])
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local fseq = tonumber(redis.call('HGET', KEYS[1], 'fseq') or '0')
if seq > fseq then redis.call('HSET', KEYS[1], 'fseq', seq) end
redis.call('HDEL', KEYS[1], 'migStep', 'migCursor', 'migK', 'seq')
redis.call('HSET', KEYS[1], 'format', 2)
redis.call('DEL', KEYS[15])
return { MIGRATE_DONE, '', '' }

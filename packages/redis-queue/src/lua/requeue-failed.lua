--[[
  Puts requests that failed for good back into the queue, at the tail, with the state the caller prepared
  (retryCount reset, handledAt removed). Counters move exactly: a kept failed request goes from handled to pending,
  a forgotten one (the 'forget' mode) comes back into the queue (total and pending). O(log N) per request.

  KEYS[1..12] the queue's keys (see add-requests.lua), KEYS[13] failed index (ZSET id -> failedAt ms),
  KEYS[14] failed data (HASH id -> record of forgotten failed requests), KEYS[15] kept failed data (see
  update-request.lua); a kept one leaves the handled store of the queue's mode ('bits': its bits stay, harmless)

  ARGV[1] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  then two arguments per request: request id, request record to store
  ARGV[last] only on a queue created with politeness: NUL then a JSON array with each request's host key (the
          workers' hostKey of its URL); each goes into its host's queue (includes/polite-requeue.lua)

  Returns one code per request: REQUEUE_REQUEUED, REQUEUE_MISSING (not in the failed index) or REQUEUE_ALREADY_QUEUED
  (the uniqueKey was added again since it failed; only the failed entry is removed). Values: src/lua/reply-codes.json.
  ERR_POLITENESS when the call's and the queue's politeness differ, ERR_QUEUE_MISSING when a polite call finds no
  queue (nothing written).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "request-state"
--- @include "polite"
--- @include "polite-requeue"
local now = redisNowMs(ARGV[1])
-- On a polite queue the request goes to its host's queue (includes/polite-requeue.lua); a call without its host
-- on a polite queue, or with one on an unpolite queue, is refused here, before anything is written.
local refusal = requeueBegin()
if refusal then return refusal end
local out = {}
local moved = 0
for i = 2, requeueLastArg(), 2 do
  local id, json = ARGV[i], ARGV[i + 1]
  local code = REQUEUE_MISSING
  if redis.call('ZREM', KEYS[13], id) == 1 then
    local forgotten = redis.call('HDEL', KEYS[14], id) == 1
    redis.call('HDEL', KEYS[15], id)
    local state = requestState(id)
    if state == 'pending' or (forgotten and state ~= nil) then
      -- Pending again, or forgotten and added again since: the queue already has it.
      code = REQUEUE_ALREADY_QUEUED
    elseif (not forgotten) and state == nil and handledMode() ~= 'store' then
      code = REQUEUE_MISSING -- kept, but deleted since
    else
      if state == 'handled' then unmarkHandled(id) end
      redis.call('HSET', KEYS[2], id, json)
      requeuePlace(id, i / 2)
      redis.call('HINCRBY', KEYS[1], 'pending', 1)
      if forgotten then
        redis.call('HINCRBY', KEYS[1], 'total', 1)
      else
        redis.call('HINCRBY', KEYS[1], 'handled', -1)
      end
      moved = moved + 1
      code = REQUEUE_REQUEUED
    end
  end
  out[#out + 1] = code
end
handledSave()
if moved > 0 then redis.call('HSET', KEYS[1], 'modifiedAt', now) end
return out

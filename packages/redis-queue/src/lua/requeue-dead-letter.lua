--[[
  Puts a dead-lettered queue entry back into the queue with its raw bytes (for example after a worker upgrade that
  can read it, or after the caller repaired it), at the tail of the queue.

  KEYS[1..12] as in add-requests.lua, KEYS[13] stalls (see list-and-lock-head.lua): the requeued request's stall
  count starts again from 0

  ARGV[1] dead-letter id (the request id for entries that came from the queue)
  ARGV[2] request id to store the entry under
  ARGV[3] the bytes to store ('' to store the original raw bytes)
  ARGV[4] clock offset in ms added to Redis TIME (tests only; '0' otherwise)
  ARGV[5] only on a queue created with politeness: NUL then a JSON array with the request's host key (the workers'
          hostKey of its URL); it goes into its host's queue (includes/polite-requeue.lua)

  Returns REQUEUE_REQUEUED, REQUEUE_MISSING (no such dead letter) or REQUEUE_ALREADY_QUEUED (the request id is in the queue
  already; the dead letter is removed). Values: src/lua/reply-codes.json. ERR_POLITENESS when the call's and the
  queue's politeness differ, ERR_QUEUE_MISSING when a polite call finds no queue (nothing written).
]]
--- @include "redis-time"
--- @include "reply-codes"
--- @include "queue-order"
--- @include "request-state"
--- @include "polite"
--- @include "polite-requeue"
local now = redisNowMs(ARGV[4])
-- On a polite queue the request goes to its host's queue (includes/polite-requeue.lua); a call without its host
-- on a polite queue, or with one on an unpolite queue, is refused here, before anything is written.
local refusal = requeueBegin()
if refusal then return refusal end
local raw = redis.call('HGET', KEYS[7], ARGV[1])
if not raw then return REQUEUE_MISSING end
redis.call('HDEL', KEYS[7], ARGV[1])
redis.call('HDEL', KEYS[8], ARGV[1])
local id = ARGV[2]
redis.call('HDEL', KEYS[13], id)
if requestState(id) ~= nil then return REQUEUE_ALREADY_QUEUED end
if ARGV[3] ~= '' then raw = ARGV[3] end
redis.call('HSET', KEYS[2], id, raw)
requeuePlace(id, 1)
redis.call('HINCRBY', KEYS[1], 'total', 1)
redis.call('HINCRBY', KEYS[1], 'pending', 1)
redis.call('HSET', KEYS[1], 'modifiedAt', now)
return REQUEUE_REQUEUED

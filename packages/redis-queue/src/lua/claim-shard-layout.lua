--[[
  Records or checks the shard layout of a queue in its root metadata (the unsharded hash tag), atomically, so two
  workers opening one new queue with different layouts cannot both go on: the first one's layout stands.

  KEYS[1] root meta (HASH `{<prefix>:rq:<name>}:meta`; for shards = 1 it is the queue's own meta)

  ARGV[1] the shard count the caller opens the queue with
  ARGV[2] the shard rule ('host' | 'uniqueKey')

  Returns { shards, shardBy } of the queue: the recorded ones; { 1, '' } for a queue created before layouts were
  recorded (its meta exists without the field; nothing is written); else the arguments, now recorded. The caller
  refuses a mismatch.

  The meta this script creates (a new queue, claimed before create-queue.lua runs) is format 2, as any meta a
  script of this version creates.
]]
local recorded = redis.call('HMGET', KEYS[1], 'shards', 'shardBy')
if recorded[1] then return { tonumber(recorded[1]), recorded[2] or '' } end
if redis.call('EXISTS', KEYS[1]) == 1 then return { 1, '' } end
redis.call('HSET', KEYS[1], 'shards', ARGV[1], 'shardBy', ARGV[2], 'format', 2)
return { tonumber(ARGV[1]), ARGV[2] }

--[[
  Records or checks the shard count of a queue in its root metadata (the unsharded hash tag), atomically, so two
  workers opening one queue with different `shards` cannot both go on: the first one's count stands.

  KEYS[1] root meta (HASH `{<prefix>:rq:<name>}:meta`; for shards = 1 it is the queue's own meta)

  ARGV[1] the shard count the caller opens the queue with

  Returns the queue's shard count: the recorded one; 1 for a queue created before counts were recorded (its meta
  exists without the field; nothing is written); else ARGV[1], now recorded. The caller refuses a mismatch.
]]
local recorded = redis.call('HGET', KEYS[1], 'shards')
if recorded then return tonumber(recorded) end
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('HSET', KEYS[1], 'shards', ARGV[1])
return tonumber(ARGV[1])

-- A queue whose metadata vanished under its workers: dropped or purged away, or a Redis that came back without its
-- data (a restart without persistence). Every worker opened the queue first (create-queue.lua wrote the meta), so a
-- script that finds no meta must not re-create it (the crawl would carry on with its requests lost and finish as if
-- done): it answers this error, nothing written. Checked only where a script reads the meta anyway, or finds nothing.
-- The including script includes "reply-codes" (ERR_QUEUE_MISSING).
local function queueGone()
  return redis.error_reply(ERR_QUEUE_MISSING .. " the queue's metadata is gone: the queue was dropped or purged away, or Redis lost its data (a restart without persistence)")
end

import { mapScriptError } from '../core/map-script-error.js';
import { ShardLayoutMismatchError, type ShardLayout } from '../errors/shard-layout-mismatch-error.js';
import type { ConnectionHandle } from '../core/connection.js';
import { queueKeys } from '../core/keys.js';
import { runScript } from '../core/scripts.js';
import { metaNumber } from '../core/meta-number.js';
import { QueueMetadataCorruptError } from '../errors/queue-metadata-corrupt-error.js';

/**
 * Records the shard layout (count and rule) of a new queue in its root metadata, or checks it against the recorded one (one script, so
 * two workers opening one new queue with different counts cannot both go on). Runs once per open, never per request.
 *
 * @param connection - the connection
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id
 * @param layout - the layout the caller opens it with
 * @throws {@link ShardLayoutMismatchError} when the queue has another layout (nothing written)
 */
export async function claimShardLayout(connection: ConnectionHandle, keyPrefix: string, queueId: string, layout: ShardLayout): Promise<void> {
  const meta = queueKeys(keyPrefix, queueId).meta;
  let reply: unknown[];
  try {
    reply = (await connection.run(() => runScript(connection.redis, 'claimShardLayout', [meta], [layout.shards, layout.shardBy]))) as unknown[];
  } catch (error) {
    throw mapScriptError(error, `request queue "${queueId}" claimShardLayout`);
  }
  const recorded: ShardLayout = { shards: Number(reply[0]), shardBy: String(reply[1]) === 'uniqueKey' ? 'uniqueKey' : 'host' };
  if (recorded.shards !== layout.shards || (layout.shards > 1 && recorded.shardBy !== layout.shardBy)) {
    throw new ShardLayoutMismatchError(queueId, recorded, layout);
  }
}

/**
 * The shard layout recorded for a queue (for the admin, CLI, dashboard and metrics, which find the shards from it).
 * @param redis - a connection
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id
 * @returns the layout; shards 1 for an unsharded queue (or one that does not exist)
 */
export async function readShardLayout(redis: ConnectionHandle['redis'], keyPrefix: string, queueId: string): Promise<ShardLayout> {
  const key = queueKeys(keyPrefix, queueId).meta;
  const [shards, shardBy] = await redis.hmget(key, 'shards', 'shardBy');
  // A corrupted count must not silently read as 1: the admin would look for the requests in the wrong shards.
  const n = metaNumber(`request queue "${queueId}" shard layout`, key, 'shards', shards, 1);
  if (n < 1 || n > 256) throw new QueueMetadataCorruptError(`request queue "${queueId}" shard layout`, key, 'shards', String(shards));
  return { shards: n, shardBy: shardBy === 'uniqueKey' ? 'uniqueKey' : 'host' };
}

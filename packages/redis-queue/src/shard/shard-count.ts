import { mapScriptError } from '../errors/map-script-error.js';
import { ShardCountMismatchError } from '../errors/shard-count-mismatch-error.js';
import type { ConnectionHandle } from '../redis/connection.js';
import { queueKeys } from '../redis/keys.js';
import { runScript } from '../redis/scripts.js';

/**
 * Records the shard count of a new queue in its root metadata, or checks it against the recorded one (one script, so
 * two workers opening one new queue with different counts cannot both go on). Runs once per open, never per request.
 *
 * @param connection - the connection
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id
 * @param shards - the count the caller opens it with
 * @throws {@link ShardCountMismatchError} when the queue has another count (nothing written)
 */
export async function claimShardCount(connection: ConnectionHandle, keyPrefix: string, queueId: string, shards: number): Promise<void> {
  const meta = queueKeys(keyPrefix, queueId).meta;
  let recorded: number;
  try {
    recorded = Number(await connection.run(() => runScript(connection.redis, 'claimShardCount', [meta], [shards])));
  } catch (error) {
    throw mapScriptError(error, `request queue "${queueId}" claimShardCount`);
  }
  if (recorded !== shards) throw new ShardCountMismatchError(queueId, recorded, shards);
}

/**
 * The shard count recorded for a queue (for the admin, CLI, dashboard and metrics, which find the shards from it).
 * @param redis - a connection
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id
 * @returns the count; 1 for an unsharded queue (or one that does not exist)
 */
export async function readShardCount(redis: ConnectionHandle['redis'], keyPrefix: string, queueId: string): Promise<number> {
  const recorded = await redis.hget(queueKeys(keyPrefix, queueId).meta, 'shards');
  const n = Number(recorded ?? 1);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

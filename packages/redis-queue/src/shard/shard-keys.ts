import { slotOf } from '@crawlee-distributed/redis-kit';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { queueKeys, type QueueKeys } from '../core/keys.js';

/** Redis Cluster hash slots. */
const SLOTS = 16_384;

/** Names that end like a shard's hash tag (`#<shard>.<salt>`) are refused for queues: shard 3 of queue `a` lives
 * under `{p:rq:a#3.<salt>}`, which an unsharded queue named `a#3.<salt>` would share. */
const SHARD_SUFFIX = /#\d+\.\d+$/;

/**
 * Refuses a queue name that could be one of another queue's shards.
 * @param name - the queue id / name
 * @throws {@link InvalidOptionsError} for a name ending in `#<digits>.<digits>`
 */
export function assertNotShardName(name: string): void {
  if (SHARD_SUFFIX.test(name)) {
    throw new InvalidOptionsError(
      `queue name ${JSON.stringify(name)} ends like a shard of a sharded queue ("#<shard>.<salt>"), so its keys could be ` +
        `those of another queue's shard; pick a name that does not end in "#<digits>.<digits>"`,
    );
  }
}

/**
 * The hash tag of shard `shard` of `shards`: `{<prefix>:rq:<name>#<shard>.<salt>}`. The salt is the smallest number
 * that puts the tag's slot in the shard's own 1/S of the 16384 slots, so the S shards sit on S evenly spaced slot
 * ranges; a cluster whose masters own equal contiguous slot ranges (what `redis-cli --cluster create` makes) then holds
 * S/masters shards per master instead of whatever a plain hash of S names happens to give. Pure: every client and the
 * admin compute the same tags from (prefix, name, shard, shards).
 *
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id (name)
 * @param shard - 0 to shards-1
 * @param shards - the queue's shard count
 * @returns the tag, braces included
 */
export function shardTag(keyPrefix: string, queueId: string, shard: number, shards: number): string {
  const low = Math.floor((shard * SLOTS) / shards);
  const high = Math.floor(((shard + 1) * SLOTS) / shards);
  for (let salt = 0; ; salt++) {
    const tag = `{${keyPrefix}:rq:${queueId}#${shard}.${salt}}`;
    const slot = slotOf(tag);
    // Ranges are at least 64 slots wide (shards <= 256), so a match comes after about S tries.
    if (slot >= low && slot < high) return tag;
  }
}

/**
 * The keys of one shard: the keys `queueKeys` gives the queue, under the shard's tag instead of the queue's. Built
 * from `queueKeys` (not a copy of its layout), so a key added to a sub-queue's layout is sharded too.
 *
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id (name)
 * @param shard - 0 to shards-1
 * @param shards - the queue's shard count
 * @returns the shard's keys
 */
export function shardQueueKeys(keyPrefix: string, queueId: string, shard: number, shards: number): QueueKeys {
  const root = queueKeys(keyPrefix, queueId);
  const tag = shardTag(keyPrefix, queueId, shard, shards);
  const move = (key: string) => (key.startsWith(root.tag) ? tag + key.slice(root.tag.length) : key);
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(root)) {
    out[field] = typeof value === 'string' ? move(value) : Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? move(v) : v)) : value;
  }
  return out as unknown as QueueKeys;
}

/**
 * The keys of every shard of a queue (shard order).
 * @param keyPrefix - the key prefix
 * @param queueId - the queue id
 * @param shards - the shard count (1: the queue's own keys)
 */
export function allShardKeys(keyPrefix: string, queueId: string, shards: number): QueueKeys[] {
  if (shards <= 1) return [queueKeys(keyPrefix, queueId)];
  return Array.from({ length: shards }, (_, s) => shardQueueKeys(keyPrefix, queueId, s, shards));
}

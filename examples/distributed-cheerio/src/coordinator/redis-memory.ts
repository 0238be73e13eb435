import { hashTagOf } from 'crawlee-redis-queue';
import type { Redis } from 'ioredis';
import { mastersOf, type RedisClient } from '../redis/open-redis.js';

/** `used_memory` from `INFO memory`, summed over a Cluster's masters. */
export async function redisUsedMemory(redis: RedisClient): Promise<number> {
  let total = 0;
  for (const node of mastersOf(redis)) {
    const info = await node.info('memory');
    total += Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
  }
  return total;
}

/**
 * Whether a key belongs to this run: its hash tag is the queue's root tag `{p:rq:name}` (queue, dedup store,
 * counters, seeding record) or one of its shards' tags `{p:rq:name#<shard>.<salt>}`.
 */
function isRunKey(key: string, rootTag: string): boolean {
  const tag = hashTagOf(key);
  const root = rootTag.slice(1, -1);
  return tag === root || tag.startsWith(`${root}#`);
}

/** Runs `each` on every key of this run, node by node (on a Cluster, every master). SCAN, never KEYS. */
async function forRunKeys(redis: RedisClient, hashTag: string, each: (node: Redis, keys: string[]) => Promise<void>): Promise<void> {
  // `{p:rq:name}` and `{p:rq:name#...}`: a queue name has no '#', so this matches no other queue's keys.
  const pattern = `*${hashTag.slice(0, -1).replace(/([*?[\]\\])/g, '\\$1')}[}#]*`;
  for (const node of mastersOf(redis)) {
    let cursor = '0';
    do {
      const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      const mine = batch.filter((key) => isRunKey(key, hashTag));
      if (mine.length > 0) await each(node, mine);
    } while (cursor !== '0');
  }
}

/** `MEMORY USAGE` summed over the run's keys, each asked of the node that holds it. */
export async function runKeysMemory(redis: RedisClient, hashTag: string): Promise<number> {
  let total = 0;
  await forRunKeys(redis, hashTag, async (node, keys) => {
    for (const name of keys) total += Number((await node.memory('USAGE', name)) ?? 0);
  });
  return total;
}

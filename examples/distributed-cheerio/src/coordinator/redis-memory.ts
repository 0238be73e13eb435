import type { Redis } from 'ioredis';

/** `used_memory` from `INFO memory`. */
export async function redisUsedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

/** Every key carrying this run's hash tag (queue, dedup store, counters). SCAN, never KEYS. */
export async function runKeyNames(redis: Redis, hashTag: string): Promise<string[]> {
  const pattern = `*${hashTag.replace(/([*?[\]\\])/g, '\\$1')}*`;
  const names: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    names.push(...batch);
  } while (cursor !== '0');
  return names;
}

/** `MEMORY USAGE` summed over the run's keys. */
export async function runKeysMemory(redis: Redis, hashTag: string): Promise<number> {
  const names = await runKeyNames(redis, hashTag);
  let total = 0;
  for (const name of names) total += Number((await redis.memory('USAGE', name)) ?? 0);
  return total;
}

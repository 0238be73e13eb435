import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FILTER_BYTES, FilterTooLargeError, RedisBloomDedupStore } from '../src/index.js';
import { connect, deleteKeys, testKey } from './helpers.js';

async function keysUnder(redis: Redis, fragment: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${fragment}*`, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

describe('RedisBloomDedupStore total size limit', () => {
  let redis: Redis;
  const prefix = testKey('size');
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('rejects capacity 1e15 at p = 1e-9 quickly with FilterTooLargeError and writes nothing', async () => {
    const key = `${prefix}:huge`;
    const started = performance.now();
    const error = await RedisBloomDedupStore.open({ redis, key, capacity: 1e15, errorRate: 1e-9 }).catch((e: unknown) => e);
    // Before the fix this allocated ~10 million block keys and ran out of heap after minutes.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(FilterTooLargeError);
    expect((error as FilterTooLargeError).code).toBe('FILTER_TOO_LARGE');
    expect((error as Error).message).toMatch(/GiB/);
    expect(await keysUnder(redis, key)).toEqual([]);
  });

  it('rejects a filter above a lower maxFilterBytes before Redis is touched', async () => {
    const key = `${prefix}:limited`;
    await expect(
      RedisBloomDedupStore.open({ redis, key, capacity: 1e6, errorRate: 1e-6, maxFilterBytes: 1e6 }),
    ).rejects.toBeInstanceOf(FilterTooLargeError);
    expect(await keysUnder(redis, key)).toEqual([]);
  });

  it('accepts a filter just under the 16 GiB default (opened without preallocation, so no block memory)', async () => {
    const key = `${prefix}:edge`;
    const store = await RedisBloomDedupStore.open({ redis, key, capacity: 4.75e9, errorRate: 1e-6, preallocate: false });
    try {
      const bytes = store.parameters.bits / 8;
      expect(bytes).toBeGreaterThan(0.99 * DEFAULT_MAX_FILTER_BYTES);
      expect(bytes).toBeLessThanOrEqual(DEFAULT_MAX_FILTER_BYTES);
      expect(store.keys.blocks).toHaveLength(32);
      // Only the meta hash exists: no block was allocated.
      expect(await keysUnder(redis, key)).toEqual([store.keys.meta]);
      expect(await redis.hget(store.keys.meta, 'blocks')).toBe('32');
    } finally {
      await store.close();
      await deleteKeys(redis, key);
    }
  });
});

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidDedupOptionsError, RedisSetDedupStore } from '../src/index.js';
import { connect, deleteKeys, fp, fps, redisUrl, testKey } from './helpers.js';

for (const protocol of [3, 2] as const) {
  describe(`RedisSetDedupStore (RESP${protocol})`, () => {
    let redis: Redis;
    const prefix = testKey(`set${protocol}`);
    beforeAll(() => {
      redis = connect(protocol);
    });
    afterAll(async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });

    it('SADDs the fingerprints themselves at the scrapy-redis key, exact per-key answers', async () => {
      const key = `${prefix}:myspider:dupefilter`;
      const store = new RedisSetDedupStore({ redis, key });
      const a = fp('set', 1);
      expect(await store.add([a, fp('set', 2), a])).toEqual([true, true, false]);
      expect((await redis.smembers(key)).sort()).toEqual([a, fp('set', 2)].sort());
      expect(await redis.type(key)).toBe('set');
      // A member a scrapy-redis worker wrote (RFPDupeFilter: SADD key fp) is seen by the store, and vice versa.
      await redis.sadd(key, fp('scrapy', 1));
      expect(await store.has([fp('scrapy', 1), a, fp('set', 3)])).toEqual([true, true, false]);
      expect(await redis.sadd(key, a)).toBe(0);
      const stats = await store.stats();
      expect(stats.itemsAdded).toBe(2);
      expect(stats.estimatedFalsePositiveRate).toBe(0);
      expect(stats.bytesUsed).toBeGreaterThan(0);
      // Counters never go into the set itself.
      expect(store.statsKey).toBe(`{${key}}:stats`);
    });

    it('splits large batches and keeps answers in order', async () => {
      const store = new RedisSetDedupStore({ redis, key: `${prefix}:big`, maxBatch: 300 });
      const keys = fps('big', 0, 1000);
      expect((await store.add(keys)).every(Boolean)).toBe(true);
      const mixed = [...fps('big', 990, 20)];
      expect(await store.add(mixed)).toEqual(mixed.map((_, i) => i >= 10));
    });

    it('forget() removes keys atomically with a per-key answer; a scrapy-redis worker then sees them as new', async () => {
      const key = `${prefix}:forget:dupefilter`;
      const store = new RedisSetDedupStore({ redis, key, maxBatch: 2 });
      const [a, b, c] = [fp('forget', 1), fp('forget', 2), fp('forget', 3)];
      await store.add([a, b]);
      expect(store.canForget).toBe(true);
      expect(await store.forget([a, c, b, a])).toEqual([true, false, true, false]);
      expect(await redis.scard(key)).toBe(0);
      expect(await redis.sadd(key, a)).toBe(1); // RFPDupeFilter.request_seen: new again
      expect(await store.has([a, b])).toEqual([true, false]);
      expect(await store.forget([])).toEqual([]);
    });

    it('validates its options', () => {
      expect(() => new RedisSetDedupStore({ redis, key: '' })).toThrow(InvalidDedupOptionsError);
      expect(() => new RedisSetDedupStore({ redis, key: 'k', maxBatch: 0 })).toThrow(InvalidDedupOptionsError);
    });
  });
}

describe('RedisSetDedupStore concurrency', () => {
  it('forget() is one transaction: 8 clients forgetting the same 200 keys at once, each key reported removed once', async () => {
    const clients = Array.from({ length: 8 }, () => new Redis(redisUrl()));
    const key = `${testKey('forget-race')}:dupefilter`;
    try {
      const stores = clients.map((redis) => new RedisSetDedupStore({ redis, key }));
      const keys = fps('forget-race', 0, 200);
      await stores[0]!.add(keys);
      const answers = await Promise.all(stores.map((s) => s.forget(keys)));
      keys.forEach((_, i) => expect(answers.filter((a) => a[i]).length).toBe(1));
      expect(await clients[0]!.exists(key)).toBe(0);
    } finally {
      await deleteKeys(clients[0]!, key);
      clients.forEach((c) => c.disconnect());
    }
  });

  it('20 trials of 8 and of 50 clients adding one new key: exactly one told "new"', async () => {
    const clients = Array.from({ length: 50 }, () => new Redis(redisUrl()));
    const key = `${testKey('set-race')}:dupefilter`;
    try {
      for (const n of [8, 50]) {
        const stores = clients.slice(0, n).map((redis) => new RedisSetDedupStore({ redis, key }));
        for (let trial = 0; trial < 20; trial++) {
          const answers = await Promise.all(stores.map((s) => s.add([fp(`set-race-${n}`, trial)])));
          expect(answers.filter((a) => a[0]).length).toBe(1);
        }
      }
    } finally {
      await deleteKeys(clients[0]!, key);
      clients.forEach((c) => c.disconnect());
    }
  });
});

import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IncompatibleFilterError,
  RedisBloomDedupStore,
  estimatedFalsePositiveRate,
  InvalidDedupOptionsError,
  FilterTooLargeError,
  RedisScriptError,
  ForgetUnsupportedError,
} from '../src/index.js';
import { commandName } from '../src/redis/scripts.js';
import { PACKAGE_VERSION } from '../src/version.js';
import { chunks, connect, deleteKeys, fp, fps, redisUrl, testKey } from './helpers.js';

for (const protocol of [3, 2] as const) {
  describe(`RedisBloomDedupStore on one node (RESP${protocol})`, () => {
    let redis: Redis;
    const prefix = testKey(`resp${protocol}`);
    beforeAll(() => {
      redis = connect(protocol);
    });
    afterAll(async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });

    it('sets exactly the bits the JS index scheme computes (Lua and JS agree)', async () => {
      const store = await RedisBloomDedupStore.open({ redis, key: `${prefix}:agree`, capacity: 1000, errorRate: 1e-6 });
      const keys = [fp('agree', 1), 'https://example.com/not-a-fingerprint', fp('agree', 2).toUpperCase()];
      for (const key of keys) {
        expect(await store.add([key])).toEqual([true]);
        const { offsets } = store.bitsOf(key);
        const distinct = new Set(offsets);
        const block = store.keys.blocks[0]!;
        for (const offset of offsets) expect(await redis.getbit(block, offset)).toBe(1);
        expect(distinct.size).toBeGreaterThan(1);
      }
      // Every set bit is one of ours: nothing else was written.
      const expected = new Set(keys.flatMap((k) => store.bitsOf(k).offsets));
      expect(await redis.bitcount(store.keys.blocks[0]!)).toBe(expected.size);
      // An upper-case fingerprint is the same key as its lower-case form.
      expect(await store.has([fp('agree', 2)])).toEqual([true]);
    });

    it('tells each key new exactly once, also when repeated inside a batch', async () => {
      const store = new RedisBloomDedupStore({ redis, key: `${prefix}:once`, capacity: 10_000, errorRate: 1e-4 });
      const a = fp('once', 1);
      const b = fp('once', 2);
      expect(await store.add([a, b, a])).toEqual([true, true, false]);
      expect(await store.add([a, b])).toEqual([false, false]);
      expect(await store.has([a, b, fp('once', 3)])).toEqual([true, true, false]);
      // has() only reads.
      expect(await store.add([fp('once', 3)])).toEqual([true]);
      const stats = await store.stats();
      expect(stats.itemsAdded).toBe(3);
      expect(stats.bytesUsed).toBe(store.parameters.blockBits / 8);
      expect(stats.estimatedFalsePositiveRate).toBeCloseTo(estimatedFalsePositiveRate(store.parameters, 3), 12);
      await store.recordFiltered(4);
      expect((await store.stats()).filtered).toBe(4);
    });

    it('a 40-hex fingerprint (B16) is found after insert, for several filter sizes', async () => {
      const key = '75d6587d87b3f4f3aa574b33dbd69ceeb9eafe7b';
      for (const capacity of [1_000, 100_000, 10_000_000]) {
        const store = await RedisBloomDedupStore.open({
          redis, key: `${prefix}:b16:${capacity}`, capacity, errorRate: 1e-3, preallocate: false,
        });
        expect(await store.has([key])).toEqual([false]);
        expect(await store.add([key])).toEqual([true]);
        expect(await store.has([key])).toEqual([true]);
      }
    });

    it('refuses to reopen a filter with other parameters, never reusing its bits', async () => {
      const key = `${prefix}:reopen`;
      const first = await RedisBloomDedupStore.open({ redis, key, capacity: 10_000, errorRate: 1e-3, recipe: 'scrapy' });
      await first.add([fp('reopen', 1)]);
      await expect(RedisBloomDedupStore.open({ redis, key, capacity: 20_000, errorRate: 1e-3 })).rejects.toBeInstanceOf(
        IncompatibleFilterError,
      );
      const other = new RedisBloomDedupStore({ redis, key, capacity: 10_000, errorRate: 1e-6 });
      const error = await other.add([fp('reopen', 2)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IncompatibleFilterError);
      expect((error as IncompatibleFilterError).code).toBe('INCOMPATIBLE_FILTER');
      expect((error as IncompatibleFilterError).field).toBe('bits');
      await expect(
        RedisBloomDedupStore.open({ redis, key, capacity: 10_000, errorRate: 1e-3, recipe: 'scrapy-2.6' }),
      ).rejects.toMatchObject({ code: 'INCOMPATIBLE_FILTER', field: 'recipe' });
      // Nothing was written by the refused stores: the key's bits are the first store's only.
      expect(await redis.bitcount(first.keys.blocks[0]!)).toBe(new Set(first.bitsOf(fp('reopen', 1)).offsets).size);
      // Same parameters reopen fine and see the old keys.
      const again = await RedisBloomDedupStore.open({ redis, key, capacity: 10_000, errorRate: 1e-3 });
      expect(await again.has([fp('reopen', 1)])).toEqual([true]);
      expect(await redis.hget(first.keys.meta, 'recipe')).toBe('scrapy');
    });

    it('rejects bad options at construction, before Redis is touched', () => {
      expect(() => new RedisBloomDedupStore({ redis, key: 'x', capacity: 0, errorRate: 0.01 })).toThrow(InvalidDedupOptionsError);
      expect(() => new RedisBloomDedupStore({ redis, key: 'x', capacity: 10, errorRate: 1 })).toThrow(InvalidDedupOptionsError);
      expect(() => new RedisBloomDedupStore({ redis, key: '', capacity: 10, errorRate: 0.1 })).toThrow(InvalidDedupOptionsError);
      expect(() => new RedisBloomDedupStore({ redis, key: 'x', capacity: 1e9, errorRate: 1e-4, blocks: 4 })).toThrow(
        FilterTooLargeError,
      );
    });

    it('splits a filter into blocks, each key inside one block, one script call per batch', async () => {
      const store = await RedisBloomDedupStore.open({
        redis, key: `${prefix}:blocks`, capacity: 20_000, errorRate: 1e-3, blocks: 4,
      });
      expect(store.keys.blocks).toHaveLength(4);
      const keys = fps('blocks', 0, 2000);
      const monitor = redis.duplicate();
      const calls: string[] = [];
      await monitor.monitor().then((m) => {
        m.on('monitor', (_time: string, args: string[]) => {
          if (String(args[0]).toLowerCase() === 'evalsha' && args.includes(store.keys.blocks[0]!)) calls.push(args[0]!);
        });
        return m;
      });
      expect((await store.add(keys)).every(Boolean)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      monitor.disconnect();
      expect(calls).toHaveLength(1);
      const perBlock = await Promise.all(store.keys.blocks.map((b) => redis.bitcount(b)));
      expect(perBlock.every((n) => n > 0)).toBe(true);
      // Each key's bits are all inside the block bitsOf names.
      for (const key of keys.slice(0, 50)) {
        const { block, offsets } = store.bitsOf(key);
        for (const o of offsets) expect(await redis.getbit(store.keys.blocks[block]!, o)).toBe(1);
      }
      expect((await store.add(keys)).some(Boolean)).toBe(false);
    });

    it('maps a foreign value at the filter key to RedisScriptError, and names scripts after the package version', async () => {
      await redis.hset(`{${prefix}:foreign}:bits`, 'x', '1');
      const error = await RedisBloomDedupStore.open({ redis, key: `${prefix}:foreign`, capacity: 100, errorRate: 0.01 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisScriptError);
      expect((error as RedisScriptError).code).toBe('REDIS_SCRIPT_ERROR');
      expect((error as Error).message).toMatch(/WRONGTYPE/);
      const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
      expect(PACKAGE_VERSION).toBe(version);
      expect(commandName('bloomAdd')).toBe(`bdBloomAdd_${version.replace(/\W/g, '_')}`);
    });

    it('a string URL makes the store open and close its own connection', async () => {
      const store = new RedisBloomDedupStore({ redis: redisUrl(), key: `${prefix}:url`, capacity: 100, errorRate: 0.01 });
      expect(await store.add(['a', 'b', 'a'])).toEqual([true, true, false]);
      await store.close();
      await expect(store.add(['c'])).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    });
  });
}

describe('RedisBloomDedupStore.forget', () => {
  it('rejects with ForgetUnsupportedError and leaves every bit as it was', async () => {
    const redis = connect();
    const key = testKey('bloom-forget');
    try {
      const store = await RedisBloomDedupStore.open({ redis, key, capacity: 1000, errorRate: 1e-6 });
      await store.add([fp('bf', 1)]);
      const before = await redis.getBuffer(store.keys.blocks[0]!);
      expect(store.canForget).toBe(false);
      await expect(store.forget([fp('bf', 1)])).rejects.toBeInstanceOf(ForgetUnsupportedError);
      await expect(store.forget([fp('bf', 1)])).rejects.toMatchObject({ code: 'FORGET_UNSUPPORTED' });
      expect((await redis.getBuffer(store.keys.blocks[0]!))!.equals(before!)).toBe(true);
      expect(await store.has([fp('bf', 1)])).toEqual([true]);
    } finally {
      await deleteKeys(redis, key);
      redis.disconnect();
    }
  });
});

describe('RedisBloomDedupStore accuracy on one node', () => {
  let redis: Redis;
  const prefix = testKey('accuracy');
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('measured false-positive rate on 100,000 non-members is within 1.2x of the target; no false negatives', async () => {
    const capacity = 50_000;
    const errorRate = 0.01;
    const store = await RedisBloomDedupStore.open({ redis, key: `${prefix}:fp`, capacity, errorRate });
    const members = fps('member', 0, capacity);
    let added = 0;
    for (const batch of chunks(members, 1000)) added += (await store.add(batch)).filter(Boolean).length;
    // A handful of members may collide with earlier ones (that is the false-positive rate at work).
    expect(added).toBeGreaterThan(capacity * 0.995);
    for (const batch of chunks(members, 1000)) expect((await store.has(batch)).every(Boolean)).toBe(true);
    let falsePositives = 0;
    for (const batch of chunks(fps('non-member', 0, 100_000), 1000)) {
      falsePositives += (await store.has(batch)).filter(Boolean).length;
    }
    const measured = falsePositives / 100_000;
    expect(measured).toBeLessThanOrEqual(errorRate * 1.2);
    expect(measured).toBeGreaterThan(errorRate / 2); // the filter is really filled, not oversized
  });
});

describe('RedisBloomDedupStore concurrency on one node', () => {
  let clients: Redis[];
  const prefix = testKey('race');
  beforeAll(async () => {
    clients = Array.from({ length: 50 }, () => new Redis(redisUrl()));
    await Promise.all(clients.map((c) => c.ping()));
  });
  afterAll(async () => {
    await deleteKeys(clients[0]!, prefix);
    clients.forEach((c) => c.disconnect());
  });

  for (const n of [8, 50]) {
    it(`20 trials of ${n} clients adding one new key: exactly one is told "new"`, async () => {
      const stores = clients.slice(0, n).map(
        (redis) => new RedisBloomDedupStore({ redis, key: `${prefix}:${n}`, capacity: 100_000, errorRate: 1e-6 }),
      );
      await Promise.all(stores.map((s) => s.open()));
      for (let trial = 0; trial < 20; trial++) {
        const key = fp(`race-${n}`, trial);
        const answers = await Promise.all(stores.map((s) => s.add([fp('noise', trial * 100 + n), key])));
        expect(answers.filter((a) => a[1]).length).toBe(1);
      }
      expect((await stores[0]!.stats()).itemsAdded).toBe(40);
    });
  }
});

import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bloomParameters, FilterTooLargeError, RedisBloomDedupStore } from '../src/index.js';
import { fp } from './helpers.js';

// A 2^32-bit block allocates 512 MiB: it gets its own redis-server, never the shared one.
describe('offsets at and above 2^31 in a 2^32-bit block (own redis-server)', () => {
  let server: RedisServerHandle;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.destroy();
  });

  it('sets and reads bits past 2^31 and up to 2^32 - 1 exactly', async () => {
    // The largest capacity whose one block still fits 2^32 bits at 1e-6.
    const capacity = 149_000_000;
    const store = await RedisBloomDedupStore.open({ redis, key: 'big', capacity, errorRate: 1e-6, blocks: 1 });
    const { blockBits } = store.parameters;
    expect(blockBits).toBeGreaterThan(2 ** 32 - 2 ** 27);
    expect(blockBits).toBeLessThanOrEqual(2 ** 32);
    const block = store.keys.blocks[0]!;
    expect(await redis.strlen(block)).toBe(blockBits / 8);

    const keys = Array.from({ length: 200 }, (_, i) => fp('big', i));
    expect((await store.add(keys)).every(Boolean)).toBe(true);
    const offsets = keys.flatMap((k) => store.bitsOf(k).offsets);
    const high = offsets.filter((o) => o >= 2 ** 31);
    expect(high.length).toBeGreaterThan(offsets.length / 3);
    expect(Math.max(...offsets)).toBeGreaterThan(2 ** 32 - 2 ** 26);
    // Every offset the JS scheme names is 1 in Redis, read back with plain GETBIT.
    const pipeline = redis.pipeline();
    for (const o of offsets) pipeline.getbit(block, o);
    const bits = (await pipeline.exec())!.map(([, v]) => v);
    expect(bits.every((b) => b === 1)).toBe(true);
    // And nothing else is set: a 32-bit wrap (offset mod 2^32 or sign flip) would have set other bits.
    expect(await redis.bitcount(block)).toBe(new Set(offsets).size);
    expect((await store.has(keys)).every(Boolean)).toBe(true);
    expect((await store.add(keys)).some(Boolean)).toBe(false);
  });

  it('B14: 1e9 keys at p = 1e-4 become 5 blocks of at most 2^32 bits; fewer blocks are refused at construction', async () => {
    const p = bloomParameters({ capacity: 1e9, errorRate: 1e-4 });
    expect(p.blocks).toBe(5);
    expect(p.hashes).toBe(13);
    expect(p.blockBits).toBeLessThanOrEqual(2 ** 32);
    expect(() => new RedisBloomDedupStore({ redis, key: 'huge', capacity: 1e9, errorRate: 1e-4, blocks: 4 })).toThrow(FilterTooLargeError);
    expect(await redis.exists('{huge}:meta')).toBe(0);
    // Every offset of 5000 keys stays inside its block (< 2^32), and the keys spread over all 5 blocks. (Writing
    // them would allocate 5 x 480 MiB; the 2^32-bit test above already writes offsets up to 2^32 - 1.)
    const store = new RedisBloomDedupStore({ redis, key: 'huge', capacity: 1e9, errorRate: 1e-4, preallocate: false });
    expect(store.keys.blocks).toHaveLength(5);
    const perBlock = [0, 0, 0, 0, 0];
    for (let i = 0; i < 5000; i++) {
      const { block, offsets } = store.bitsOf(fp('huge', i));
      perBlock[block]!++;
      for (const o of offsets) expect(o).toBeLessThan(p.blockBits);
    }
    for (const n of perBlock) expect(n).toBeGreaterThan(900);
  });
});

import { sameSlotKey } from '@crawlee-distributed/redis-kit';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { IncompatibleFilterError, InvalidDedupOptionsError, RedisBloomDedupStore, RedisSetDedupStore } from '../src/index.js';
import { bloomKeys, legacyBlockKey } from '../src/redis/bloom-keys.js';
import { validateRedisStoreOptions } from '../src/redis/validate-store-options.js';
import { connect, deleteKeys, fps, testKey } from './helpers.js';

// Keys made of the pieces the layouts are made of (braces, ':', 'bits', digits), so near-collisions are common.
const storeKey = fc
  .array(fc.constantFrom('a', '{', '}', ':', 'bits', '0', '1', ':0', 'meta', '{a}'), { minLength: 1, maxLength: 5 })
  .map((pieces) => pieces.join(''));

function derived(key: string, blocks: number): string[] | undefined {
  try {
    validateRedisStoreOptions({ key, redis: {} });
  } catch (error) {
    if (error instanceof InvalidDedupOptionsError) return undefined;
    throw error;
  }
  const keys = bloomKeys(key, blocks);
  // A set store under the same key owns `key` itself and its stats key.
  return [keys.meta, ...keys.blocks, sameSlotKey(key, 'stats')];
}

describe('Bloom and set key derivations', () => {
  it('two different accepted keys (any block count) never share a derived key', () => {
    fc.assert(
      fc.property(storeKey, storeKey, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), (k1, k2, b1, b2) => {
        fc.pre(k1 !== k2);
        const a = derived(k1, b1);
        const b = derived(k2, b2);
        fc.pre(a !== undefined && b !== undefined);
        expect(a.filter((k) => b.includes(k))).toEqual([]);
      }),
      { numRuns: 30_000 },
    );
  });

  it('the known collisions are gone: "a" (2 blocks) vs "a:0", and "a" vs the bare tag "{a}" (rejected)', () => {
    expect(bloomKeys('a', 2).blocks).toEqual(['{a:bits:0}', '{a:bits:1}']);
    expect(bloomKeys('a:0', 1).blocks).toEqual(['{a:0}:bits']);
    expect(() => new RedisBloomDedupStore({ redis: 'redis://127.0.0.1:6379', key: '{a}', capacity: 10, errorRate: 0.01 })).toThrow(InvalidDedupOptionsError);
    expect(() => new RedisSetDedupStore({ redis: 'redis://127.0.0.1:6379', key: '{a}' })).toThrow(/only a hash tag/);
    // Unchanged for the layouts that were not ambiguous.
    expect(bloomKeys('a', 1)).toEqual({ meta: '{a}:meta', blocks: ['{a}:bits'] });
    expect(bloomKeys('{c}:bloom', 2)).toEqual({ meta: '{c}:bloom:meta', blocks: ['{c}:bloom:bits:0', '{c}:bloom:bits:1'] });
  });
});

describe('a 0.1 spread filter', () => {
  const redis = connect();
  const prefix = testKey('layout');
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('is refused with IncompatibleFilterError (blockLayout) instead of silently starting empty', async () => {
    const key = `${prefix}:old`;
    await redis.set(legacyBlockKey(key, 0), 'x');
    const store = new RedisBloomDedupStore({ redis, key, capacity: 10_000, errorRate: 1e-6, blocks: 2 });
    const error = await store.open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IncompatibleFilterError);
    expect((error as IncompatibleFilterError).field).toBe('blockLayout');
    expect(await redis.exists(`{${key}}:meta`)).toBe(0);
  });

  it('a new spread filter works at the new keys', async () => {
    const key = `${prefix}:new`;
    const store = await RedisBloomDedupStore.open({ redis, key, capacity: 10_000, errorRate: 1e-6, blocks: 2 });
    const keys = fps('layout', 0, 50);
    expect((await store.add(keys)).every(Boolean)).toBe(true);
    expect((await store.add(keys)).some(Boolean)).toBe(false);
    expect(await redis.exists(`{${key}:bits:0}`, `{${key}:bits:1}`)).toBe(2);
  });
});

// Bounds: every numeric option of crawlee-bloom-dedup has a documented range checked up front. NaN,
// Infinity, negative, fractional, huge and non-number values each get a typed error before Redis is touched (no key
// is written) and before any memory is allocated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import {
  FilterTooLargeError,
  InvalidDedupOptionsError,
  MemoryBloomDedupStore,
  RedisBloomDedupStore,
  RedisSetDedupStore,
  bloomParameters,
} from '../src/index.js';
import { connect, deleteKeys, fp, testKey } from './helpers.js';

let redis: Redis;
const prefix = testKey('ranges');
beforeAll(() => {
  redis = connect();
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const COMMON: unknown[] = [Number.NaN, Number.NEGATIVE_INFINITY, -1, '5', null, {}, true, 10n];
const WHOLE: unknown[] = [...COMMON, 0, 0.5, 2.5, Number.POSITIVE_INFINITY, 2 ** 60];

/** Creates and uses a store with one option set to `value`; must throw before anything is written. */
type Attempt = (value: unknown) => Promise<unknown>;
const bloom = (extra: Record<string, unknown>) => async () => {
  const store = new RedisBloomDedupStore({ redis, key: `${prefix}:bloom`, capacity: 1000, errorRate: 0.01, ...extra });
  await store.add([fp('r', 1)]);
};
const set = (extra: Record<string, unknown>) => async () => {
  const store = new RedisSetDedupStore({ redis, key: `${prefix}:set`, ...extra });
  await store.add([fp('r', 1)]);
};
const memory = (extra: Record<string, unknown>) => async () => {
  const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 0.01, ...extra });
  await store.add([fp('r', 1)]);
};

const CASES: Array<[string, unknown[], Attempt]> = [
  ['RedisBloomDedupStore capacity', [...WHOLE, 1e15], (v) => bloom({ capacity: v })()],
  ['RedisBloomDedupStore errorRate', [...COMMON, 0, 1, 2, Number.POSITIVE_INFINITY], (v) => bloom({ errorRate: v })()],
  ['RedisBloomDedupStore blocks', [...WHOLE, 65_537], (v) => bloom({ blocks: v })()],
  ['RedisBloomDedupStore maxFilterBytes', [...COMMON, 0, 1], (v) => bloom({ maxFilterBytes: v })()],
  ['RedisBloomDedupStore maxBatch', [...WHOLE, 50_001], (v) => bloom({ maxBatch: v })()],
  ['RedisBloomDedupStore connectTimeoutSecs', [...COMMON, 0, Number.POSITIVE_INFINITY, 3601], (v) => bloom({ redis: 'redis://127.0.0.1:1', connectTimeoutSecs: v })()],
  ['RedisSetDedupStore maxBatch', [...WHOLE, 50_001], (v) => set({ maxBatch: v })()],
  ['RedisSetDedupStore connectTimeoutSecs', [...COMMON, 0, Number.POSITIVE_INFINITY, 3601], (v) => set({ redis: 'redis://127.0.0.1:1', connectTimeoutSecs: v })()],
  ['MemoryBloomDedupStore capacity', [...WHOLE, 1e15], (v) => memory({ capacity: v })()],
  ['MemoryBloomDedupStore errorRate', [...COMMON, 0, 1, Number.POSITIVE_INFINITY], (v) => memory({ errorRate: v })()],
  ['MemoryBloomDedupStore maxFilterBytes', [...COMMON, 0, 1], (v) => memory({ maxFilterBytes: v })()],
  ['bloomParameters capacity', WHOLE, (v) => Promise.resolve().then(() => bloomParameters({ capacity: v as number, errorRate: 0.01 }))],
];

describe('numeric option ranges of crawlee-bloom-dedup', () => {
  it.each(CASES)('%s: bad values are typed errors, nothing is written', async (name, values, attempt) => {
    for (const value of values) {
      let error: unknown;
      try {
        await attempt(value);
      } catch (caught) {
        error = caught;
      }
      const typed = error instanceof InvalidDedupOptionsError || error instanceof FilterTooLargeError;
      expect(typed, `${name} = ${String(value)}: ${String(error)}`).toBe(true);
    }
    const [, keys] = await redis.scan('0', 'MATCH', `*${prefix}*`, 'COUNT', 100_000);
    expect(keys).toEqual([]);
  });
});

// Names (the new-user break test): a misspelt option (`maxbatch`, `autosave`) was dropped silently, and the store ran
// with the default, found out only when the filter overflowed or no snapshot was written.
describe('option names of crawlee-bloom-dedup', () => {
  it.each([
    ['RedisBloomDedupStore', bloom({ maxbatch: 10 }), 'maxBatch'],
    ['RedisBloomDedupStore', bloom({ errorrate: 0.01 }), 'errorRate'],
    ['RedisSetDedupStore', set({ conectTimeoutSecs: 5 }), 'connectTimeoutSecs'],
    ['MemoryBloomDedupStore', memory({ autosave: true }), 'autoSave'],
  ])('%s refuses a misspelt option, names the right one, writes nothing', async (_store, attempt, near) => {
    await expect(attempt()).rejects.toThrow(InvalidDedupOptionsError);
    await expect(attempt()).rejects.toThrow(new RegExp(`did you mean ${near}\\?`));
    const [, keys] = await redis.scan('0', 'MATCH', `*${prefix}*`, 'COUNT', 100_000);
    expect(keys).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisBloomDedupStore, withDedup } from '../../src/index.js';
import { deleteKeys, redisUrl } from '../helpers.js';

// The scrapy-redis migration path: a start-URL feed drained into crawlee-redis-queue with a Redis Bloom store
// attached. The queue is used through its built dist (neither package depends on the other).
const queueDist = fileURLToPath(new URL('../../../redis-queue/dist/index.js', import.meta.url));
const dedupDist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const worker = fileURLToPath(new URL('./feed-bloom-worker.mjs', import.meta.url));
const built = existsSync(queueDist) && existsSync(dedupDist);
if (!built) console.warn('SKIPPED test/feed/feed-bloom.int.test.ts: build crawlee-redis-queue and crawlee-bloom-dedup first');

type OpenQueue = (name: string, options: object) => Promise<RequestQueue>;
const run = promisify(execFile);
const page = (p: number) => `https://feed.example/page?p=${p}`;

describe.skipIf(!built)('start-URL feed + RedisBloomDedupStore', () => {
  let redis: Redis;
  let openRedisRequestQueue: OpenQueue;
  const prefix = `tfeed${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    redis = new Redis(redisUrl());
    openRedisRequestQueue = ((await import(/* @vite-ignore */ queueDist)) as { openRedisRequestQueue: OpenQueue }).openRedisRequestQueue;
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('the feed drain as the first add writes the meta hash whole; later calls and drains work', async () => {
    const feedKey = `${prefix}:one:start_urls`;
    const storeKey = `${prefix}:one:bloom`;
    const queue = await openRedisRequestQueue('one', { redis, keyPrefix: prefix, startUrlsKey: feedKey });
    const store = new RedisBloomDedupStore({ redis, key: storeKey, capacity: 10_000, errorRate: 1e-6 });
    withDedup(queue, { store });
    await redis.rpush(feedKey, page(1), page(2));
    const client = queue.client as unknown as { listAndLockHead(o: object): Promise<{ items: unknown[] }> };
    expect((await client.listAndLockHead({ limit: 25, lockSecs: 60 })).items).toHaveLength(2);
    const meta = await redis.hgetall(store.keys.meta);
    expect(meta).toMatchObject({ bits: String(store.parameters.bits), hashes: String(store.parameters.hashes), itemsAdded: '2', type: 'bloom' });
    expect(await store.stats()).toMatchObject({ itemsAdded: 2, filtered: 0 });
    await redis.rpush(feedKey, page(1), page(3));
    await client.listAndLockHead({ limit: 25, lockSecs: 60 });
    const again = await queue.addRequests([page(3), page(4)]);
    expect(again.processedRequests.map((r) => r.wasAlreadyPresent)).toEqual([true, false]);
    expect(await store.stats()).toMatchObject({ itemsAdded: 4 });
    // Another process opening the same store (the constructor's parameters) finds a compatible filter.
    const reopened = await RedisBloomDedupStore.open({ redis, key: storeKey, capacity: 10_000, errorRate: 1e-6 });
    expect(await reopened.has(['x', 'y'])).toEqual([false, false]);
  });

  it('a meta hash a previous version left with counters only is completed on open (counters kept)', async () => {
    const storeKey = `${prefix}:partial:bloom`;
    const store = new RedisBloomDedupStore({ redis, key: storeKey, capacity: 1_000, errorRate: 1e-4 });
    await redis.hset(store.keys.meta, 'itemsAdded', 7);
    await store.open();
    expect(await redis.hget(store.keys.meta, 'bits')).toBe(String(store.parameters.bits));
    expect(await store.stats()).toMatchObject({ itemsAdded: 7, filtered: 0 });
    // A meta hash with other parameters is still refused.
    const other = new RedisBloomDedupStore({ redis, key: storeKey, capacity: 2_000, errorRate: 1e-4 });
    await expect(other.open()).rejects.toThrow(/bits/);
  });

  it('drains over several batches and processes: every page once, no IncompatibleFilterError', async () => {
    const feedKey = `${prefix}:fleet:start_urls`;
    const storeKey = `${prefix}:fleet:bloom`;
    const config = { queueDist, dedupDist, redisUrl: redisUrl(), keyPrefix: prefix, queueName: 'fleet', feedKey, storeKey, batchSize: 10, linksBelow: 5 };
    const start = async () => {
      const { stdout } = await run(process.execPath, [worker, JSON.stringify(config)], { timeout: 60_000 });
      return JSON.parse(stdout.trim().split('\n').pop()!) as { handled: string[]; error: string | null };
    };
    await redis.rpush(feedKey, ...Array.from({ length: 30 }, (_, p) => page(p)));
    const first = await start();
    expect(first.error).toBeNull();
    expect(new Set(first.handled).size).toBe(35);
    expect(first.handled).toHaveLength(35);
    // A second migration batch: 10 new pages and 10 the fleet has handled, drained by two processes at once.
    await redis.rpush(feedKey, ...Array.from({ length: 20 }, (_, i) => page(i < 10 ? 30 + i : i - 10)));
    const [b, c] = await Promise.all([start(), start()]);
    expect(b.error).toBeNull();
    expect(c.error).toBeNull();
    const later = [...b.handled, ...c.handled].sort();
    expect(later).toEqual(Array.from({ length: 10 }, (_, i) => page(30 + i)).sort());
    const stats = await new RedisBloomDedupStore({ redis, key: storeKey, capacity: 10_000, errorRate: 1e-6, recipe: 'scrapy' }).stats();
    expect(stats.itemsAdded).toBe(45);
  }, 120_000);
});

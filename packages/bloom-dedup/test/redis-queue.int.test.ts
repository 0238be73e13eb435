import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startRedisCluster, type RedisClusterHandle } from '@crawlee-distributed/test-utils';
import { Statistics, type RequestQueue } from 'crawlee';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEDUP_FILTERED_STAT,
  DEDUP_STATE,
  RedisBloomDedupStore,
  RedisSetDedupStore,
  withDedup,
  type DedupQueueState,
} from '../src/index.js';
import { deleteKeys, redisUrl } from './helpers.js';

// crawlee-redis-queue is used through its built dist only (neither package depends on the other). This is the one
// conditional skip of the suite: build it with `npx turbo run build --filter=crawlee-redis-queue`.
const distPath = fileURLToPath(new URL('../../redis-queue/dist/index.js', import.meta.url));
const built = existsSync(distPath);
if (!built) console.warn(`SKIPPED test/redis-queue.int.test.ts: crawlee-redis-queue is not built (${distPath} is missing)`);

type OpenQueue = (name: string, options: { redis: Redis | Cluster; keyPrefix: string; startUrlsKey?: string }) => Promise<RequestQueue>;
const loadQueue = async (): Promise<OpenQueue> =>
  ((await import(/* @vite-ignore */ distPath)) as { openRedisRequestQueue: OpenQueue }).openRedisRequestQueue;

const stateOf = (queue: object) => (queue as Record<symbol, DedupQueueState>)[DEDUP_STATE]!;
const pathKey = (r: { url: string }) => r.url.split('?')[0]!;

describe.skipIf(!built)('withDedup on crawlee-redis-queue: check and enqueue in one script', () => {
  let openRedisRequestQueue: OpenQueue;
  let redis: Redis;
  const prefix = `t${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    openRedisRequestQueue = await loadQueue();
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('attaches to the queue client; filtered requests are present, counted in stats and in the store', async () => {
    const queue = await openRedisRequestQueue('atomic', { redis, keyPrefix: prefix });
    const store = new RedisBloomDedupStore({ redis, key: `${prefix}:bloom`, capacity: 10_000, errorRate: 1e-6 });
    const statistics = new Statistics();
    withDedup(queue, { store, key: pathKey, statistics });
    expect(stateOf(queue).mode).toBe('atomic');
    const first = await queue.addRequests(['https://q.example/a?x=1', 'https://q.example/b']);
    expect(first.processedRequests.map((r) => r.wasAlreadyPresent)).toEqual([false, false]);
    const second = await queue.addRequests(['https://q.example/a?x=2', 'https://q.example/c']);
    const byKey = new Map(second.processedRequests.map((r) => [r.uniqueKey, r]));
    expect(byKey.get('https://q.example/a?x=2')!.wasAlreadyPresent).toBe(true);
    expect(byKey.get('https://q.example/c')!.wasAlreadyPresent).toBe(false);
    expect(await store.has(['https://q.example/a', 'https://q.example/c'])).toEqual([true, true]);
    expect(await store.stats()).toMatchObject({ itemsAdded: 3, filtered: 1 });
    expect(statistics.calculate()).toMatchObject({ [DEDUP_FILTERED_STAT]: 1 });
    const info = await queue.client.get();
    expect(info?.totalRequestCount).toBe(3);
  });

  it('an exact set store attaches too (scrapy-redis dupefilter layout)', async () => {
    const queue = await openRedisRequestQueue('atomic-set', { redis, keyPrefix: prefix });
    const store = new RedisSetDedupStore({ redis, key: `${prefix}:spider:dupefilter` });
    withDedup(queue, { store, key: pathKey });
    expect(stateOf(queue).mode).toBe('atomic');
    await queue.addRequests(['https://s.example/a?x=1']);
    const again = await queue.addRequests(['https://s.example/a?x=2']);
    expect(again.processedRequests[0]!.wasAlreadyPresent).toBe(true);
    expect(await redis.smembers(`${prefix}:spider:dupefilter`)).toEqual(['https://s.example/a']);
  });

  it('dontFilter requests go through the queue script without touching the set or its counter', async () => {
    const queue = await openRedisRequestQueue('atomic-dont', { redis, keyPrefix: prefix });
    const key = `${prefix}:dont:dupefilter`;
    const store = new RedisSetDedupStore({ redis, key });
    withDedup(queue, { store });
    expect(stateOf(queue).mode).toBe('atomic');
    await redis.sadd(key, 'seen-by-scrapy');
    const result = await queue.addRequests([
      { url: 'https://dont.example/1', uniqueKey: 'seen-by-scrapy:1', userData: { dontFilter: true } },
      { url: 'https://dont.example/1', uniqueKey: 'seen-by-scrapy:2', userData: { dontFilter: true } },
      { url: 'https://dont.example/1', uniqueKey: 'seen-by-scrapy' },
      { url: 'https://dont.example/2', uniqueKey: 'new-one' },
    ]);
    expect(result.processedRequests.map((r) => r.wasAlreadyPresent)).toEqual([false, false, true, false]);
    const single = await queue.addRequest({ url: 'https://dont.example/3', uniqueKey: 'single:x', userData: { dontFilter: true } });
    expect(single.wasAlreadyPresent).toBe(false);
    expect((await redis.smembers(key)).sort()).toEqual(['new-one', 'seen-by-scrapy']);
    expect((await store.stats()).itemsAdded).toBe(1);
    expect((await queue.client.get())?.totalRequestCount).toBe(4);
    // The scratch set that carried the dontFilter ops is empty again.
    const scratch: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefix}:dont:dupefilter*skip-scratch*`, 'COUNT', 1000);
      cursor = next;
      scratch.push(...keys);
    } while (cursor !== '0');
    for (const k of scratch) expect(await redis.scard(k)).toBe(0);
  });

  it('dontFilter requests leave a Redis Bloom filter in the queue script untouched (bits and itemsAdded)', async () => {
    const queue = await openRedisRequestQueue('atomic-dont-bloom', { redis, keyPrefix: prefix });
    const store = new RedisBloomDedupStore({ redis, key: `${prefix}:dont-bloom`, capacity: 10_000, errorRate: 1e-6 });
    withDedup(queue, { store });
    await queue.addRequests(['https://db.example/seen']);
    const bits = await redis.bitcount(store.keys.blocks[0]!);
    const again = await queue.addRequests([
      { url: 'https://db.example/seen', uniqueKey: 'https://db.example/seen:again', userData: { dontFilter: true } },
      { url: 'https://db.example/new', userData: { dontFilter: true } },
    ]);
    expect(again.processedRequests.map((r) => r.wasAlreadyPresent)).toEqual([false, false]);
    expect(await redis.bitcount(store.keys.blocks[0]!)).toBe(bits);
    expect(await store.has(['https://db.example/new'])).toEqual([false]);
    expect((await store.stats()).itemsAdded).toBe(1);
  });

  it('start-URL feed items go through the same filter as added requests: one page enqueued once, in either order', async () => {
    const feedKey = `${prefix}:feed:start_urls`;
    const queue = await openRedisRequestQueue('feed', { redis, keyPrefix: prefix, startUrlsKey: feedKey });
    const store = new RedisSetDedupStore({ redis, key: `${prefix}:feed:dupefilter` });
    withDedup(queue, { store, key: pathKey });
    expect(stateOf(queue).mode).toBe('atomic');
    const drain = () => (queue.client as unknown as { listAndLockHead(o: object): Promise<unknown> }).listAndLockHead({ limit: 25, lockSecs: 60 });
    // Added by a worker first, then fed under another uniqueKey with the same dedup key: the feed item is filtered.
    await queue.addRequests(['https://f.example/a?x=1']);
    await redis.rpush(feedKey, 'https://f.example/a?x=2', 'https://f.example/b?x=1');
    await drain(); // locks the added request; the feed is drained only when nothing is available
    await drain();
    expect(await redis.llen(feedKey)).toBe(0);
    // Fed first: the feed item's dedup key is recorded in the same script, so the worker's variant is filtered.
    const later = await queue.addRequests(['https://f.example/b?x=2']);
    expect(later.processedRequests[0]!.wasAlreadyPresent).toBe(true);
    expect((await redis.smembers(`${prefix}:feed:dupefilter`)).sort()).toEqual(['https://f.example/a', 'https://f.example/b']);
    expect((await queue.client.get())?.totalRequestCount).toBe(2);
    expect(stateOf(queue).filtered).toBe(2);
  });

  for (const n of [8, 50]) {
    it(`20 trials of ${n} workers adding one new page under different uniqueKeys: exactly one enqueues it`, async () => {
      const connections = Array.from({ length: n }, () => new Redis(redisUrl()));
      try {
        const queues = await Promise.all(
          connections.map(async (c) => {
            const queue = await openRedisRequestQueue(`race-${n}`, { redis: c, keyPrefix: prefix });
            const store = new RedisBloomDedupStore({ redis: c, key: `${prefix}:race-${n}`, capacity: 10_000, errorRate: 1e-6 });
            return withDedup(queue, { store, key: pathKey });
          }),
        );
        expect(queues.every((q) => stateOf(q).mode === 'atomic')).toBe(true);
        for (let trial = 0; trial < 20; trial++) {
          const results = await Promise.all(queues.map((q, w) => q.addRequests([`https://race.example/p${trial}?worker=${w}`])));
          expect(results.filter((r) => !r.processedRequests[0]!.wasAlreadyPresent)).toHaveLength(1);
        }
        expect((await queues[0]!.client.get())?.totalRequestCount).toBe(20);
      } finally {
        connections.forEach((c) => c.disconnect());
      }
    });
  }
});

describe.skipIf(!built)('withDedup on crawlee-redis-queue on a 3-master cluster', () => {
  let openRedisRequestQueue: OpenQueue;
  let cluster: RedisClusterHandle;
  let client: Cluster;
  beforeAll(async () => {
    openRedisRequestQueue = await loadQueue();
    cluster = await startRedisCluster({ masters: 3 });
    client = new Cluster(cluster.nodes);
  }, 120_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  it('a filter keyed with the queue\'s hash tag runs in the queue script; another slot filters in front', async () => {
    const queue = await openRedisRequestQueue('crawl', { redis: client, keyPrefix: 'c' });
    const store = new RedisBloomDedupStore({ redis: client, key: '{c:rq:crawl}:bloom', capacity: 10_000, errorRate: 1e-6, blocks: 2 });
    withDedup(queue, { store, key: pathKey });
    expect(stateOf(queue).mode).toBe('atomic');
    await queue.addRequests(['https://c.example/a?x=1']);
    expect((await queue.addRequests(['https://c.example/a?x=2'])).processedRequests[0]!.wasAlreadyPresent).toBe(true);
    expect(await store.stats()).toMatchObject({ itemsAdded: 1, filtered: 1 });

    const other = await openRedisRequestQueue('crawl2', { redis: client, keyPrefix: 'c' });
    const spread = new RedisBloomDedupStore({ redis: client, key: 'elsewhere', capacity: 10_000, errorRate: 1e-6, blocks: 2 });
    withDedup(other, { store: spread, key: pathKey });
    expect(stateOf(other).mode).toBe('in-front');
    await other.addRequests(['https://c.example/a?x=1']);
    expect((await other.addRequests(['https://c.example/a?x=2'])).processedRequests[0]!.wasAlreadyPresent).toBe(true);
  });
});

import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { BasicCrawler, Configuration, type RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEDUP_STATE, RedisBloomDedupStore, withDedup, type DedupQueueState } from '../src/index.js';
import { deleteKeys, redisUrl } from './helpers.js';

// One seen-set per crawl: crawlee-redis-queue with `handledRequests: 'store'` keeps no handled index of its own; the
// attached Bloom store is the record of handled requests. The queue is used through its built dist.
const queueDist = fileURLToPath(new URL('../../redis-queue/dist/index.js', import.meta.url));
const built = existsSync(queueDist);
if (!built) console.warn('SKIPPED test/one-seen-set.int.test.ts: build crawlee-redis-queue first');

type Queue = RequestQueue & { client: { get(): Promise<{ handledRequestCount: number; totalRequestCount: number; pendingRequestCount: number } | undefined> } };
type OpenQueue = (name: string, options: object) => Promise<Queue>;
const url = (i: number) => `https://seen.example/p/${i}`;
const stateOf = (queue: object) => (queue as Record<symbol, DedupQueueState>)[DEDUP_STATE]!;

describe.skipIf(!built)('crawlee-redis-queue + RedisBloomDedupStore: one seen-set', () => {
  let redis: Redis;
  let openRedisRequestQueue: OpenQueue;
  let errors: Record<string, new (...args: never[]) => Error>;
  const prefix = `tseen${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    redis = new Redis(redisUrl());
    const mod = (await import(/* @vite-ignore */ queueDist)) as { openRedisRequestQueue: OpenQueue } & Record<string, never>;
    openRedisRequestQueue = mod.openRedisRequestQueue;
    errors = mod;
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  const keysOf = async (fragment: string) => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*${fragment}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  };

  it("the store filters re-adds of handled requests (its count is real), even beside the queue's own 'key' index", async () => {
    const queue = await openRedisRequestQueue('key-mode', { redis, keyPrefix: prefix });
    const store = new RedisBloomDedupStore({ redis, key: `{${prefix}:rq:key-mode}:dedup`, capacity: 1_000, errorRate: 1e-6 });
    withDedup(queue, { store });
    await queue.addRequests([url(1)]);
    const head = await (queue as unknown as { fetchNextRequest(): Promise<{ id: string } | null> }).fetchNextRequest();
    await queue.markRequestHandled(head as never);
    // A new process (no Crawlee request cache) offers the handled page again.
    const other = await openRedisRequestQueue('key-mode', { redis, keyPrefix: prefix });
    withDedup(other, { store: new RedisBloomDedupStore({ redis, key: `{${prefix}:rq:key-mode}:dedup`, capacity: 1_000, errorRate: 1e-6 }) });
    const again = await other.addRequests([url(1)]);
    expect(again.processedRequests[0]).toMatchObject({ wasAlreadyPresent: true });
    expect(await store.stats()).toMatchObject({ itemsAdded: 1, filtered: 1 });
    expect(stateOf(other).filtered).toBe(1);
  });

  it("handledRequests 'store': a crawl handles every page once, the queue keeps nothing per handled request", async () => {
    const name = 'store-mode';
    const storeKey = `{${prefix}:rq:${name}}:dedup`;
    const open = async () => {
      const queue = await openRedisRequestQueue(name, { redis, keyPrefix: prefix, handledRequests: 'store' });
      const store = new RedisBloomDedupStore({ redis, key: storeKey, capacity: 1_000, errorRate: 1e-6 });
      withDedup(queue, { store });
      return { queue, store };
    };
    const pages = 40;
    const crawl = async () => {
      const { queue, store } = await open();
      const handled: string[] = [];
      const crawler = new BasicCrawler(
        {
          requestQueue: queue,
          maxConcurrency: 4,
          useSessionPool: false,
          async requestHandler({ request, addRequests }) {
            handled.push(request.url);
            const i = Number(request.url.split('/').pop());
            // Every page links to the next two and back to the first: most offers are duplicates.
            await addRequests([url(i + 1), url(i + 2), url(0)].filter((u) => Number(u.split('/').pop()) < pages));
          },
        },
        new Configuration({ persistStorage: false, purgeOnStart: false }),
      );
      await crawler.run([url(0)]);
      return { handled, store, queue };
    };
    const [a, b] = await Promise.all([crawl(), crawl()]);
    const all = [...a.handled, ...b.handled].sort();
    expect(all).toEqual(Array.from({ length: pages }, (_, i) => url(i)).sort());
    const info = await a.queue.client.get();
    expect(info).toMatchObject({ handledRequestCount: pages, totalRequestCount: pages, pendingRequestCount: 0 });
    const stats = await a.store.stats();
    expect(stats.itemsAdded).toBe(pages);
    // No handled index, Bloom or record of the queue's own: only the store's bits and meta.
    const tag = `{${prefix}:rq:${name}}`;
    expect(await keysOf(`${tag}:ix:`)).toEqual([]);
    expect(await keysOf(`${tag}:hb:`)).toEqual([]);
    expect(await redis.hlen(`${tag}:done`)).toBe(0);
    expect(await redis.hlen(`${tag}:data`)).toBe(0);

    // A later run (fresh processes, no Crawlee cache): every handled page is filtered by the store, none crawled.
    const before = stats.filtered;
    const rerun = await crawl();
    expect(rerun.handled).toEqual([]);
    expect((await rerun.store.stats()).filtered).toBe(before + 1);
  }, 60_000);

  it("handledRequests 'store' without the store attached: the add is refused, nothing written", async () => {
    const queue = await openRedisRequestQueue('store-bare', { redis, keyPrefix: prefix, handledRequests: 'store' });
    await expect(queue.addRequests([url(1)])).rejects.toBeInstanceOf(errors.DedupStoreRequiredError!);
    expect(await queue.client.get()).toMatchObject({ totalRequestCount: 0 });
  });

  it("handledRequests 'store': of 8 clients adding one new page at once, exactly one enqueues it", async () => {
    const name = 'store-race';
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const queue = await openRedisRequestQueue(name, { redis, keyPrefix: prefix, handledRequests: 'store' });
        withDedup(queue, { store: new RedisBloomDedupStore({ redis, key: `{${prefix}:rq:${name}}:dedup`, capacity: 1_000, errorRate: 1e-6 }) });
        return queue;
      }),
    );
    for (let trial = 0; trial < 5; trial++) {
      const results = await Promise.all(clients.map((q) => q.addRequest({ url: url(100 + trial) })));
      expect(results.filter((r) => !r.wasAlreadyPresent)).toHaveLength(1);
    }
    expect(await clients[0]!.client.get()).toMatchObject({ totalRequestCount: 5, pendingRequestCount: 5 });
  });
});

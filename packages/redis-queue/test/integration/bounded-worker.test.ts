// A bounded worker: RedisRequestQueue bounds Crawlee's local caches (RequestQueueV2 keeps up to 2,000,000 requests
// in its requestCache and a 1,000,000-slot requestSeenCache), however the queue is opened. The caches are shortcuts
// only: with the LRU cut to a handful of entries, a re-add of evicted requests is still reported as present (Redis
// dedups atomically), and a crawl whose locked requests were evicted before they were fetched handles each once.
import { BasicCrawler, Configuration } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { REQUEST_CACHE_MAX, REQUEST_SEEN_CACHE_SLOTS, RedisRequestQueue } from '../../src/storage/redis-request-queue.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world?.cleanup();
});

/** Crawlee's caches of a queue (protected fields in the typings). */
const cachesOf = (queue: RedisRequestQueue) =>
  queue as unknown as { requestCache: { maxLength: number; length(): number }; requestSeenCache: { size: number } };

describe('a bounded worker', () => {
  it("bounds Crawlee's requestCache and requestSeenCache, opened through openRedisRequestQueue or Crawlee's open()", async () => {
    world = createWorld(backend, `bounded-${Date.now()}`);
    const storageClient = world.storageClient();
    const opened = await openRedisRequestQueue(world.name, { storageClient });
    const viaCrawlee = await RedisRequestQueue.open(world.name, { storageClient, config: new Configuration({ persistStorage: false }) });
    expect(viaCrawlee).toBeInstanceOf(RedisRequestQueue);
    for (const queue of [opened, viaCrawlee as RedisRequestQueue]) {
      expect(cachesOf(queue).requestCache.maxLength).toBe(REQUEST_CACHE_MAX);
      expect(cachesOf(queue).requestSeenCache.size).toBe(REQUEST_SEEN_CACHE_SLOTS);
    }
    expect(REQUEST_CACHE_MAX).toBeLessThanOrEqual(100_000);
  });

  it('the caches are shortcuts: evicted requests are still deduplicated, and locked ones still fetched and handled once', { timeout: 60_000 }, async () => {
    world = createWorld(backend, `bounded-evict-${Date.now()}`);
    const queue = await openRedisRequestQueue(world.name, { storageClient: world.storageClient() });
    cachesOf(queue).requestCache.maxLength = 5;
    const urls = Array.from({ length: 60 }, (_, i) => `https://example.com/bounded/${i}`);
    const first = await queue.addRequests(urls.map((url) => ({ url })));
    expect(first.processedRequests.filter((r) => !r.wasAlreadyPresent)).toHaveLength(60);
    expect(cachesOf(queue).requestCache.length()).toBeLessThanOrEqual(5);
    // A fresh queue object has no cache of these: Redis answers.
    const again = await openRedisRequestQueue(world.name, { storageClient: world.storageClient() });
    cachesOf(again).requestCache.maxLength = 5;
    const second = await again.addRequests(urls.map((url) => ({ url })));
    expect(second.processedRequests.every((r) => r.wasAlreadyPresent)).toBe(true);
    expect((await again.addRequest({ url: urls[0]! })).wasAlreadyPresent).toBe(true);

    // Each lock batch caches its requests; with 5 entries most are evicted before the crawler fetches them.
    const handled = new Map<string, number>();
    const crawler = new BasicCrawler(
      {
        requestQueue: again,
        maxConcurrency: 10,
        requestHandler: ({ request }) => {
          handled.set(request.url, (handled.get(request.url) ?? 0) + 1);
          return Promise.resolve();
        },
      },
      new Configuration({ persistStorage: false, purgeOnStart: false }),
    );
    const stats = await crawler.run();
    expect(stats.requestsFailed).toBe(0);
    expect([...handled.keys()].sort()).toEqual([...urls].sort());
    expect([...handled.values()].every((n) => n === 1)).toBe(true);
    expect((await world.admin().stats()).handled).toBe(60);
  });
});

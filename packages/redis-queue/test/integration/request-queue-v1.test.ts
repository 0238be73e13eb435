// Crawlee's RequestQueueV1 (`experiments: { requestLocking: false }`) never locks: it reads `listHead`, keeps the
// ids in a local head, and marks each request handled with updateRequest. Every request handled that way leaves its
// list entry behind (removing it from the middle of a list would be O(N)), so listHead must see past those entries
// however many there are; a crawl that finished with requests still pending is the failure these tests pin.
import { randomUUID } from 'node:crypto';
import { BasicCrawler, Configuration, RequestQueueV1 } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
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

const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/v1/${i}`);

describe('RequestQueueV1 (requestLocking: false) on the Redis client', () => {
  it.each([300, 1000])('a BasicCrawler with requestLocking: false handles all %i URLs, each once', async (count) => {
    world = createWorld(backend, 'default');
    const storageClient = world.storageClient();
    const config = new Configuration({ storageClient, persistStorage: false, purgeOnStart: false });
    const seen = new Map<string, number>();
    const crawler = new BasicCrawler(
      {
        experiments: { requestLocking: false },
        maxConcurrency: 10,
        requestHandlerTimeoutSecs: 30,
        requestHandler({ request }) {
          seen.set(request.url, (seen.get(request.url) ?? 0) + 1);
        },
      },
      config,
    );
    const stats = await crawler.run(urls(count));
    expect(crawler.requestQueue).toBeInstanceOf(RequestQueueV1);
    expect(stats.requestsFinished).toBe(count);
    expect(seen.size).toBe(count);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const info = await crawler.requestQueue!.client.get();
    expect(info).toMatchObject({ totalRequestCount: count, handledRequestCount: count, pendingRequestCount: 0 });
    await storageClient.close();
  }, 120_000);

  it.each([
    ['one queue', {}],
    ['shards: 4', { shards: 4 }],
  ])('a direct V1 loop (fetchNextRequest / markRequestHandled, some reclaimed to the forefront) empties the queue: %s', async (_label, options) => {
    // A new name each time: Crawlee caches opened queues by name, across storage clients.
    world = createWorld(backend, `v1-loop-${randomUUID().slice(0, 8)}`, options);
    const storageClient = world.storageClient();
    const queue = await RequestQueueV1.open(world.name, { storageClient });
    await queue.addRequests(urls(700).map((url) => ({ url })));
    const handled = new Set<string>();
    let reclaimed = 0;
    for (;;) {
      const request = await queue.fetchNextRequest();
      if (!request) {
        if (await queue.isFinished()) break;
        await new Promise((resolve) => setTimeout(resolve, 50)); // a reclaimed request is back after 3 s (Crawlee)
        continue;
      }
      expect(handled.has(request.url)).toBe(false);
      // Every 50th request fails once and goes back to the head (its list entry becomes stale, its place `back`).
      if (Number(request.url.split('/').pop()) % 50 === 7 && request.retryCount === 0) {
        request.retryCount += 1;
        await queue.reclaimRequest(request, { forefront: true });
        reclaimed += 1;
        continue;
      }
      await queue.markRequestHandled(request);
      handled.add(request.url);
    }
    expect(reclaimed).toBe(14);
    expect(handled.size).toBe(700);
    expect(await queue.client.get()).toMatchObject({ totalRequestCount: 700, handledRequestCount: 700, pendingRequestCount: 0 });
    await storageClient.close();
  }, 120_000);
});

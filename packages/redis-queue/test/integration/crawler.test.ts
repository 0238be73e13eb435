import { BasicCrawler, Configuration, RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
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

const config = () => new Configuration({ persistStorage: false, purgeOnStart: true });

/** A multi-process crawl: request i adds i+1, i+2 and 2i, up to `max`. */
function crawler(requestQueue: RequestQueue, max: number, seen: Map<number, number>) {
  return new BasicCrawler(
    {
      requestQueue,
      maxConcurrency: 4,
      requestHandlerTimeoutSecs: 30,
      async requestHandler({ request, addRequests }) {
        const i = request.userData.i as number;
        seen.set(i, (seen.get(i) ?? 0) + 1);
        const next = [i + 1, i + 2, 2 * i].filter((n) => n <= max);
        await addRequests(next.map((n) => ({ url: `https://example.com/${n}`, userData: { i: n } })));
      },
    },
    config(),
  );
}

describe('Crawlee integration', () => {
  it('two crawlers (two storage clients, two connections) share one queue: every request handled exactly once', async () => {
    world = createWorld(backend, 'crawl');
    const q1 = await openRedisRequestQueue(world.name, { redis: backend.connect(), keyPrefix: world.keyPrefix });
    const q2 = await openRedisRequestQueue(world.name, { redis: backend.connect(), keyPrefix: world.keyPrefix });
    expect(q1).not.toBe(q2);
    expect(q1.client).toBeInstanceOf(RedisRequestQueueClient);
    const seen = new Map<number, number>();
    await q1.addRequest({ url: 'https://example.com/1', userData: { i: 1 } });
    await Promise.all([crawler(q1, 200, seen).run(), crawler(q2, 200, seen).run()]);
    expect(seen.size).toBe(200);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect(await world.admin().stats()).toEqual({ total: 200, pending: 0, locked: 0, handled: 200, deadLetters: 0 });
  });

  it('locks that expire in a worker\'s local buffer are not processed twice (ownership + lazy recovery)', async () => {
    world = createWorld(backend, 'short-locks');
    const opts = { keyPrefix: world.keyPrefix };
    const q1 = await openRedisRequestQueue(world.name, { ...opts, redis: backend.connect() });
    const q2 = await openRedisRequestQueue(world.name, { ...opts, redis: backend.connect() });
    await q1.addRequests(Array.from({ length: 10 }, (_, i) => ({ url: `https://example.com/${i}` })));
    const counts = new Map<string, number>();
    const slow = (queue: RequestQueue) => {
      const c = new BasicCrawler(
        {
          requestQueue: queue,
          maxConcurrency: 1,
          requestHandlerTimeoutSecs: 30,
          async requestHandler({ request }) {
            counts.set(request.url, (counts.get(request.url) ?? 0) + 1);
            await new Promise((resolve) => setTimeout(resolve, 600));
          },
        },
        config(),
      );
      // The crawler sets max(handler + 5, 60) s; 2 s makes the 25-request local buffer outlive its locks.
      queue.requestLockSecs = 2;
      return c;
    };
    const c1 = slow(q1);
    const first = c1.run();
    await new Promise((resolve) => setTimeout(resolve, 300)); // q1 locks all ten first
    await Promise.all([first, slow(q2).run()]);
    expect(counts.size).toBe(10);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await world.admin().stats()).toMatchObject({ handled: 10, pending: 0 });
  });

  it('purgeOnStart does not wipe a shared queue: a new worker starting later still finds the work', async () => {
    world = createWorld(backend, 'shared');
    const seeder = await openRedisRequestQueue(world.name, { redis: world.redis, keyPrefix: world.keyPrefix });
    await seeder.addRequests([1, 2, 3].map((i) => ({ url: `https://example.com/${i}`, userData: { i } })));
    const storageClient = new RedisStorageClient({ redis: world.redis, keyPrefix: world.keyPrefix });
    await storageClient.purge(); // what Crawlee calls on every start with purgeOnStart
    const worker = await RequestQueue.open(world.name, { storageClient, config: config() });
    expect(await worker.client.get()).toMatchObject({ totalRequestCount: 3, pendingRequestCount: 3 });
    const seen = new Map<number, number>();
    await crawler(worker, 3, seen).run();
    expect([...seen.keys()].sort()).toEqual([1, 2, 3]);
  });

  it('openRedisRequestQueue sets the lock time from the handler timeout, accepts lockSecs, refuses "default"', async () => {
    world = createWorld(backend, 'locks');
    const opts = { redis: world.redis, keyPrefix: world.keyPrefix };
    expect((await openRedisRequestQueue(world.name, { ...opts, requestHandlerTimeoutSecs: 100 })).requestLockSecs).toBe(105);
    expect((await openRedisRequestQueue(world.name, { ...opts, requestHandlerTimeoutSecs: 10 })).requestLockSecs).toBe(60);
    expect((await openRedisRequestQueue(world.name, { ...opts, lockSecs: 7 })).requestLockSecs).toBe(7);
    await expect(openRedisRequestQueue('default', opts)).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(openRedisRequestQueue('', opts)).rejects.toBeInstanceOf(InvalidOptionsError);
  });

  it('a connection the user passes is never closed; one we create from a URL is', async () => {
    world = createWorld(backend, 'conn');
    const userRedis = new Redis(inject('redisUrl'));
    const sc = new RedisStorageClient({ redis: userRedis, keyPrefix: world.keyPrefix });
    await sc.requestQueues().getOrCreate(world.name);
    await sc.teardown();
    await sc.close();
    expect(await userRedis.ping()).toBe('PONG');
    await userRedis.quit();

    const owned = new RedisStorageClient({ redis: inject('redisUrl'), keyPrefix: world.keyPrefix });
    await owned.requestQueues().getOrCreate(world.name);
    const ended = new Promise((resolve) => (owned.redis as Redis).once('end', resolve));
    await owned.close();
    await ended;
    expect((owned.redis as Redis).status).toBe('end');
  });

  it('datasets and key-value stores stay local (per process), not in Redis', async () => {
    world = createWorld(backend, 'local');
    const a = new RedisStorageClient({ redis: world.redis, keyPrefix: world.keyPrefix });
    const b = new RedisStorageClient({ redis: world.redis, keyPrefix: world.keyPrefix });
    const storeA = await a.keyValueStores().getOrCreate('default');
    await a.keyValueStore(storeA.id).setRecord({ key: 'SDK_CRAWLER_STATISTICS_0', value: { n: 1 } });
    const storeB = await b.keyValueStores().getOrCreate('default');
    expect(await b.keyValueStore(storeB.id).getRecord('SDK_CRAWLER_STATISTICS_0')).toBeUndefined();
  });
});

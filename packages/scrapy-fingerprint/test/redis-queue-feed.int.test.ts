import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { RequestQueue } from 'crawlee';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scrapyUniqueKey, withScrapyFingerprint } from '../src/index.js';

// crawlee-redis-queue through its built dist only (neither package depends on the other). Build it with
// `npx turbo run build --filter=crawlee-redis-queue`.
const distPath = fileURLToPath(new URL('../../redis-queue/dist/index.js', import.meta.url));
const built = existsSync(distPath);
if (!built) console.warn(`SKIPPED test/redis-queue-feed.int.test.ts: crawlee-redis-queue is not built (${distPath} is missing)`);

interface QueueClient {
  listAndLockHead(o: { limit: number; lockSecs: number }): Promise<{ items: Array<{ uniqueKey: string }> }>;
  get(): Promise<{ totalRequestCount: number } | undefined>;
}
type Queue = RequestQueue & { client: QueueClient };
interface Admin {
  redis: { lpush(key: string, ...values: string[]): Promise<number> };
  drop(): Promise<void>;
  close(): Promise<void>;
}
interface RedisQueueModule {
  openRedisRequestQueue(name: string, o: Record<string, unknown>): Promise<Queue>;
  RedisStorageClient: new (o: Record<string, unknown>) => { close(): Promise<void> };
  RedisQueueAdmin: new (o: Record<string, unknown>) => Admin;
  defaultStartUrlsKey(name: string): string;
}

describe.skipIf(!built)('withScrapyFingerprint on a crawlee-redis-queue with a start-URL feed', () => {
  let rq: RedisQueueModule;
  const keyPrefix = `fp${randomUUID().slice(0, 8)}`;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    rq = (await import(/* @vite-ignore */ distPath)) as RedisQueueModule;
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const open = async (name: string, viaStorageClient = false) => {
    const redis = inject('redisUrl');
    const admin = new rq.RedisQueueAdmin({ redis, keyPrefix, name });
    let queue: Queue;
    if (viaStorageClient) {
      // A plain Crawlee RequestQueue on this package's storage client: wrapped, and the client gets the transform.
      const { RequestQueue: Rq } = await import('crawlee');
      const storageClient = new rq.RedisStorageClient({ redis, keyPrefix, startUrls: true });
      cleanups.push(() => storageClient.close());
      queue = await Rq.open(name, { storageClient: storageClient as never });
    } else {
      queue = await rq.openRedisRequestQueue(name, { redis, keyPrefix, startUrlsKey: true });
    }
    cleanups.push(async () => {
      await admin.drop();
      await admin.close();
    });
    withScrapyFingerprint(queue);
    const feed = (...urls: string[]) => admin.redis.lpush(rq.defaultStartUrlsKey(name), ...urls.reverse());
    const drain = () => queue.client.listAndLockHead({ limit: 25, lockSecs: 60 });
    return { queue, feed, drain };
  };

  const url = 'https://fp.example/page?b=2&a=1&utm_source=x';

  it('a feed item, then the same URL added by a worker: stored once, under its fingerprint', async () => {
    const { queue, feed, drain } = await open(`feed-first-${randomUUID().slice(0, 6)}`);
    await feed(url);
    const { items } = await drain();
    expect(items.map((i) => i.uniqueKey)).toEqual([scrapyUniqueKey({ url })]);
    const added = await queue.addRequest({ url });
    expect(added.wasAlreadyPresent).toBe(true);
    expect((await queue.client.get())?.totalRequestCount).toBe(1);
  });

  it('a URL added by a worker, then the same URL as a feed item: stored once', async () => {
    const { queue, feed, drain } = await open(`api-first-${randomUUID().slice(0, 6)}`);
    expect((await queue.addRequests([url])).processedRequests[0]!.wasAlreadyPresent).toBe(false);
    await feed(url, 'https://fp.example/other');
    await drain();
    await drain();
    expect((await queue.client.get())?.totalRequestCount).toBe(2);
  });

  it('a plain RequestQueue on the RedisStorageClient: the wrapper and the client apply the same fingerprint', async () => {
    const { queue, feed, drain } = await open(`plain-${randomUUID().slice(0, 6)}`, true);
    await feed(url);
    await drain();
    expect((await queue.addRequest({ url })).wasAlreadyPresent).toBe(true);
    expect((await queue.client.get())?.totalRequestCount).toBe(1);
  });
});

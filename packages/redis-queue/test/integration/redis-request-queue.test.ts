import { RequestQueue } from 'crawlee';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, expectTypeOf, inject, it } from 'vitest';
import { openRedisRequestQueue, RedisQueueAdmin, RedisRequestQueue, RedisRequestQueueClient } from '../../src/index.js';
import { UNIQUE_KEY_SINK, type UniqueKeySink } from '../../src/internal.js';

const keyPrefix = `rrq${randomUUID().slice(0, 8)}`;
const opened: RedisRequestQueue[] = [];
afterAll(async () => {
  for (const queue of opened) {
    const admin = new RedisQueueAdmin({ redis: inject('redisUrl'), keyPrefix, name: queue.name! });
    await admin.drop();
    await admin.close();
  }
});

const open = async (startUrlsKey?: string) => {
  const queue = await openRedisRequestQueue(`q-${randomUUID().slice(0, 8)}`, { redis: inject('redisUrl'), keyPrefix, ...(startUrlsKey ? { startUrlsKey } : {}) });
  opened.push(queue);
  return queue;
};

/** A stand-in for crawlee-scrapy-fingerprint's transform: fills uniqueKey with the lower-cased path. */
const pathTransform = <T>(requestLike: T): T => {
  if (typeof requestLike === 'string') return { url: requestLike, uniqueKey: `path:${new URL(requestLike).pathname.toLowerCase()}` } as T;
  const r = requestLike as { url: string; uniqueKey?: string };
  return (r.uniqueKey ? r : { ...r, uniqueKey: `path:${new URL(r.url).pathname.toLowerCase()}` }) as T;
};

describe('openRedisRequestQueue returns a typed RedisRequestQueue', () => {
  it('is a Crawlee RequestQueue whose client and releaseLocks need no cast', async () => {
    const queue = await open();
    expectTypeOf(openRedisRequestQueue).returns.resolves.toEqualTypeOf<RedisRequestQueue>();
    expectTypeOf(queue).toMatchTypeOf<RequestQueue>();
    expectTypeOf(queue.client).toEqualTypeOf<RedisRequestQueueClient>();
    expectTypeOf<ReturnType<RedisRequestQueue['releaseLocks']>>().toEqualTypeOf<Promise<number>>();
    expect(queue).toBeInstanceOf(RequestQueue);
    expect(queue.client).toBeInstanceOf(RedisRequestQueueClient);
    await queue.addRequests(['https://t.example/1', 'https://t.example/2']);
    const fetched = await queue.fetchNextRequest();
    expect(fetched?.url).toBe('https://t.example/1');
    // Crawlee buffered and locked both; releaseLocks hands them back.
    expect(await queue.releaseLocks()).toBeGreaterThanOrEqual(1);
  });
});

describe('uniqueKey seam (Symbol.for crawlee-distributed/unique-key-sink@1)', () => {
  it('a transform registered on the queue applies to addRequest, addRequests (arrays and async iterables) and feed items', async () => {
    const feedKey = `${keyPrefix}:${randomUUID().slice(0, 6)}:start_urls`;
    const queue = await open(feedKey);
    const sink = (queue as unknown as Record<symbol, UniqueKeySink>)[UNIQUE_KEY_SINK]!;
    expect(typeof sink.setUniqueKeyTransform).toBe('function');
    sink.setUniqueKeyTransform(pathTransform);
    expect((await queue.addRequest({ url: 'https://t.example/A?x=1' })).uniqueKey).toBe('path:/a');
    const batch = await queue.addRequests(['https://t.example/a?x=2', { url: 'https://t.example/b' }, { url: 'https://t.example/c', uniqueKey: 'mine' }]);
    expect(batch.processedRequests.map((r) => [r.uniqueKey, r.wasAlreadyPresent])).toEqual([
      ['path:/a', true],
      ['path:/b', false],
      ['mine', false],
    ]);
    async function* more() {
      yield await Promise.resolve('https://t.example/B?y');
    }
    expect((await queue.addRequests(more())).processedRequests[0]).toMatchObject({ uniqueKey: 'path:/b', wasAlreadyPresent: true });
    const client = queue.client;
    await client.listAndLockHead({ limit: 25, lockSecs: 60 }); // takes the three requests; the feed drains on the next call
    await (client.redis as import('ioredis').Redis).rpush(feedKey, 'https://t.example/A', 'https://t.example/d?q');
    const { items } = await client.listAndLockHead({ limit: 25, lockSecs: 60 });
    expect(items.map((i) => i.uniqueKey)).toEqual(['path:/d']);
    expect((await client.get())?.totalRequestCount).toBe(4);
  });
});

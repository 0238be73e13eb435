import { Configuration, MemoryStorage, Request, RequestQueue, Statistics } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEDUP_FILTERED_STAT, InvalidDedupOptionsError, MemoryBloomDedupStore, RedisBloomDedupStore, reportDedupTo, withDedup } from '../src/index.js';
import { UNIQUE_KEY_TRANSFORM } from '../src/internal.js';
import { connect, deleteKeys, testKey } from './helpers.js';

const openQueue = async () => {
  const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
  return RequestQueue.open(`q-${Math.random().toString(36).slice(2)}`, { config });
};

describe('withDedup on MemoryStorage queues (filter in front: has → enqueue → add)', () => {
  it('reports filtered requests as already present and never enqueues them', async () => {
    const queue = await openQueue();
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store, key: (r) => r.url.split('?')[0]! });
    const first = await queue.addRequests(['https://x.example/a?s=1', { url: 'https://x.example/b' }]);
    expect(first.processedRequests.map((r) => r.wasAlreadyPresent)).toEqual([false, false]);
    const second = await queue.addRequests([
      'https://x.example/a?s=2', // other uniqueKey, same dedup key: filtered
      'https://x.example/c?s=1',
      'https://x.example/c?s=2', // same dedup key as the previous one in this batch: filtered
    ]);
    const byKey = new Map(second.processedRequests.map((r) => [r.uniqueKey, r]));
    expect(byKey.get('https://x.example/a?s=2')).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: false });
    expect(byKey.get('https://x.example/a?s=2')!.requestId).toMatch(/^[A-Za-z0-9]{15}$/);
    expect(byKey.get('https://x.example/c?s=1')!.wasAlreadyPresent).toBe(false);
    expect(byKey.get('https://x.example/c?s=2')!.wasAlreadyPresent).toBe(true);
    const single = await queue.addRequest({ url: 'https://x.example/b?again=1' });
    expect(single.wasAlreadyPresent).toBe(true);
    const fresh = await queue.addRequest(new Request({ url: 'https://x.example/d' }));
    expect(fresh.wasAlreadyPresent).toBe(false);
    // Only a, b, c?s=1 and d were enqueued.
    const urls: string[] = [];
    for (let r = await queue.fetchNextRequest(); r; r = await queue.fetchNextRequest()) {
      urls.push(r.url);
      await queue.markRequestHandled(r);
    }
    expect(urls.sort()).toEqual(['https://x.example/a?s=1', 'https://x.example/b', 'https://x.example/c?s=1', 'https://x.example/d']);
    expect((await store.stats()).filtered).toBe(3);
    // maxNewRequests (enqueueLinks' limit, maxRequestsPerCrawl) counts only !wasAlreadyPresent.
    const batched = await queue.addRequestsBatched(['https://x.example/a?s=9', 'https://x.example/e'], { maxNewRequests: 1 });
    expect(batched.addedRequests.map((r) => r.uniqueKey).sort()).toEqual(['https://x.example/a?s=9', 'https://x.example/e']);
    await queue.drop();
  });

  it('loses no request: a key counts as seen only once the queue holds its request', async () => {
    const queue = await openQueue();
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store });
    const client = queue.client as unknown as { batchAddRequests: (...a: unknown[]) => Promise<unknown> };
    const original = client.batchAddRequests.bind(client);
    client.batchAddRequests = () => Promise.reject(new Error('queue down'));
    await expect(queue.addRequests(['https://y.example/1'])).rejects.toThrow('queue down');
    expect(await store.has(['https://y.example/1'])).toEqual([false]);
    // Requests the queue reports unprocessed stay unseen too.
    client.batchAddRequests = (requests: unknown) =>
      Promise.resolve({
        processedRequests: [],
        unprocessedRequests: (requests as Request[]).map((r) => ({ uniqueKey: r.uniqueKey, url: r.url, method: 'GET' })),
      });
    const unprocessed = await queue.addRequests(['https://y.example/1']);
    expect(unprocessed.unprocessedRequests).toHaveLength(1);
    expect(await store.has(['https://y.example/1'])).toEqual([false]);
    client.batchAddRequests = original;
    const retried = await queue.addRequests(['https://y.example/1']);
    expect(retried.processedRequests[0]!.wasAlreadyPresent).toBe(false);
    expect(await store.has(['https://y.example/1'])).toEqual([true]);
    expect(queue.getTotalCount()).toBe(1);
    await queue.drop();
  });

  it('applies the unique-key transform (crawlee-scrapy-fingerprint) before computing keys, whatever the order', async () => {
    const queue = await openQueue();
    const transform = (o: { url: string; uniqueKey?: string }) => ({ ...o, uniqueKey: o.uniqueKey ?? `fp:${o.url.toLowerCase()}` });
    (queue as unknown as Record<symbol, unknown>)[UNIQUE_KEY_TRANSFORM] = transform;
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store });
    await queue.addRequests([{ url: 'https://Z.example/A' }]);
    expect(await store.has(['fp:https://z.example/a'])).toEqual([true]);
    const again = await queue.addRequests([{ url: 'https://z.example/a' }]);
    expect(again.processedRequests[0]).toMatchObject({ wasAlreadyPresent: true, uniqueKey: 'fp:https://z.example/a' });
    await queue.drop();
  });

  it('shows dedup/filtered in the crawler statistics (calculate, toJSON, persisted state)', async () => {
    const queue = await openQueue();
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store });
    const statistics = new Statistics({ config: new Configuration({ persistStorage: false }) });
    reportDedupTo(queue, statistics);
    await queue.addRequests(['https://s.example/1', 'https://s.example/1']);
    await queue.addRequests(['https://s.example/1', 'https://s.example/2']);
    expect(statistics.calculate()).toMatchObject({ [DEDUP_FILTERED_STAT]: 1 });
    expect(JSON.parse(JSON.stringify(statistics))[DEDUP_FILTERED_STAT]).toBe(1);
    statistics.reset();
    expect(statistics.toJSON()).toMatchObject({ [DEDUP_FILTERED_STAT]: 1 });
    expect(() => reportDedupTo({}, statistics)).toThrow(InvalidDedupOptionsError);
    expect(() => withDedup(queue, { store })).toThrow(InvalidDedupOptionsError);
    await queue.drop();
  });
});

describe('withDedup with a Redis store shared by two processes\' MemoryStorage queues', () => {
  let redis: Redis;
  const prefix = testKey('two-workers');
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('what one worker enqueued the other filters, and both see the shared totals', async () => {
    const [q1, q2] = [await openQueue(), await openQueue()];
    const s1 = new RedisBloomDedupStore({ redis, key: `${prefix}:seen`, capacity: 10_000, errorRate: 1e-6 });
    const s2 = new RedisBloomDedupStore({ redis: redis.duplicate(), key: `${prefix}:seen`, capacity: 10_000, errorRate: 1e-6 });
    withDedup(q1, { store: s1 });
    withDedup(q2, { store: s2 });
    await q1.addRequests(['https://w.example/1', 'https://w.example/2']);
    const r = await q2.addRequests(['https://w.example/2', 'https://w.example/3']);
    expect(r.processedRequests.find((p) => p.uniqueKey.endsWith('/2'))!.wasAlreadyPresent).toBe(true);
    expect(q2.getTotalCount()).toBe(1);
    expect(await s1.stats()).toMatchObject({ itemsAdded: 3, filtered: 1 });
    await (s2.redis as Redis).quit();
    await q1.drop();
    await q2.drop();
  });
});

import { Configuration, MemoryStorage, Request, RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEDUP_STATE, MemoryBloomDedupStore, RedisSetDedupStore, withDedup, type DedupQueueState } from '../src/index.js';
import { connect, deleteKeys, fp, testKey } from './helpers.js';

const openQueue = async () => {
  const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
  return RequestQueue.open(`q-${Math.random().toString(36).slice(2)}`, { config });
};

type Client = {
  batchAddRequests: (requests: Request[], options?: object) => Promise<unknown>;
  addRequest: (request: Request, options?: object) => Promise<unknown>;
};

/** Makes the queue's own enqueue (its client's addRequest / batchAddRequests) run `before(uniqueKeys)` first. */
function beforeEnqueue(queue: RequestQueue, before: (uniqueKeys: string[]) => Promise<void>): void {
  const client = queue.client as unknown as Client;
  const batch = client.batchAddRequests.bind(client);
  const single = client.addRequest.bind(client);
  client.batchAddRequests = async (requests, options) => {
    await before(requests.map((r) => r.uniqueKey));
    return batch(requests, options);
  };
  client.addRequest = async (request, options) => {
    await before([request.uniqueKey]);
    return single(request, options);
  };
}

/** Unique keys the queue holds (every request, handled or not). */
async function enqueued(queue: RequestQueue): Promise<string[]> {
  const keys: string[] = [];
  for (let r = await queue.fetchNextRequest(); r; r = await queue.fetchNextRequest()) {
    keys.push(r.uniqueKey);
    await queue.markRequestHandled(r);
  }
  return keys;
}

describe('sharing a scrapy-redis dupefilter from a MemoryStorage queue (RedisSetDedupStore, claim first)', () => {
  let redis: Redis;
  let scrapy: Redis;
  const prefix = testKey('share');
  beforeAll(() => {
    redis = connect();
    scrapy = connect(2); // a second connection, standing in for a Scrapy worker (RFPDupeFilter.request_seen: SADD)
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
    scrapy.disconnect();
  });

  it('a Scrapy SADD landing between the check and the enqueue, 300 keys in parallel: each key is crawled exactly once', async () => {
    const key = `${prefix}:between:dupefilter`;
    const queue = await openQueue();
    const store = new RedisSetDedupStore({ redis, key });
    withDedup(queue, { store });
    expect((queue as unknown as Record<symbol, DedupQueueState>)[DEDUP_STATE]).toMatchObject({ mode: 'in-front', inFront: 'claim' });
    const scrapyTook = new Set<string>();
    let calls = 0;
    beforeEnqueue(queue, async (uniqueKeys) => {
      calls++;
      // The Scrapy worker schedules the same fingerprints now; it enqueues those its SADD reports new.
      const replies = await Promise.all(uniqueKeys.map((k) => scrapy.sadd(key, k)));
      uniqueKeys.forEach((k, i) => replies[i] === 1 && scrapyTook.add(k));
    });
    const keys = Array.from({ length: 300 }, (_, i) => fp('between', i));
    await Promise.all([
      ...keys.slice(0, 100).map((k) => queue.addRequest({ url: `https://between.example/${k}`, uniqueKey: k })),
      ...Array.from({ length: 20 }, (_, b) =>
        queue.addRequests(keys.slice(100 + b * 10, 110 + b * 10).map((k) => ({ url: `https://between.example/${k}`, uniqueKey: k }))),
      ),
    ]);
    const crawlee = await enqueued(queue);
    expect(calls).toBe(120);
    for (const k of keys) expect(Number(crawlee.includes(k)) + Number(scrapyTook.has(k))).toBe(1);
    expect(crawlee).toHaveLength(300);
    expect(await redis.scard(key)).toBe(300);
    await queue.drop();
  });

  it('Scrapy SADDs racing at random times with two Crawlee workers, 400 keys: exactly once per key', async () => {
    const key = `${prefix}:random:dupefilter`;
    const [q1, q2] = [await openQueue(), await openQueue()];
    withDedup(q1, { store: new RedisSetDedupStore({ redis, key }) });
    withDedup(q2, { store: new RedisSetDedupStore({ redis: redis.duplicate(), key }) });
    const keys = Array.from({ length: 400 }, (_, i) => fp('random', i));
    const scrapyTook = new Set<string>();
    const jitter = () => new Promise((r) => setTimeout(r, Math.random() * 5));
    await Promise.all(
      keys.flatMap((k) => [
        jitter().then(() => q1.addRequest({ url: `https://r.example/${k}`, uniqueKey: k })),
        jitter().then(() => q2.addRequests([{ url: `https://r.example/${k}`, uniqueKey: k }])),
        jitter().then(async () => (await scrapy.sadd(key, k)) === 1 && scrapyTook.add(k)),
      ]),
    );
    const [a, b] = [new Set(await enqueued(q1)), new Set(await enqueued(q2))];
    for (const k of keys) expect(Number(a.has(k)) + Number(b.has(k)) + Number(scrapyTook.has(k))).toBe(1);
    await q1.drop();
    await q2.drop();
  });

  it('a key whose enqueue fails is forgotten again (the set keeps only what a queue holds)', async () => {
    const key = `${prefix}:fail:dupefilter`;
    const queue = await openQueue();
    const store = new RedisSetDedupStore({ redis, key });
    withDedup(queue, { store });
    const k = fp('fail', 1);
    beforeEnqueue(queue, () => Promise.reject(new Error('queue down')));
    await expect(queue.addRequests([{ url: 'https://f.example/1', uniqueKey: k }])).rejects.toThrow('queue down');
    expect(await redis.sismember(key, k)).toBe(0);
    await expect(queue.addRequest({ url: 'https://f.example/1', uniqueKey: k })).rejects.toThrow('queue down');
    expect(await redis.sismember(key, k)).toBe(0);
    await queue.drop();
  });

  it('dontFilter requests are enqueued without touching the set (userData.dontFilter, or the option)', async () => {
    const key = `${prefix}:dont:dupefilter`;
    const queue = await openQueue();
    const store = new RedisSetDedupStore({ redis, key });
    withDedup(queue, { store });
    const seen = fp('dont', 1);
    await redis.sadd(key, seen); // a Scrapy worker already fetched it
    const result = await queue.addRequests([
      { url: 'https://d.example/1', uniqueKey: `${seen}:run-1`, userData: { dontFilter: true } },
      { url: 'https://d.example/1', uniqueKey: `${seen}:run-2`, userData: { dontFilter: true } },
      { url: 'https://d.example/1', uniqueKey: seen },
    ]);
    expect(result.processedRequests.map((r) => [r.uniqueKey, r.wasAlreadyPresent])).toEqual([
      [`${seen}:run-1`, false],
      [`${seen}:run-2`, false],
      [seen, true],
    ]);
    const single = await queue.addRequest(new Request({ url: 'https://d.example/2', uniqueKey: 'fresh:x', userData: { dontFilter: true } }));
    expect(single.wasAlreadyPresent).toBe(false);
    expect(await redis.smembers(key)).toEqual([seen]);
    expect((await store.stats()).itemsAdded).toBe(0);

    const other = await openQueue();
    withDedup(other, { store: new RedisSetDedupStore({ redis, key }), dontFilter: (r) => r.url.endsWith('/always') });
    await other.addRequests(['https://d.example/always', 'https://d.example/once']);
    expect((await redis.smembers(key)).sort()).toEqual([seen, 'https://d.example/once'].sort());
    await queue.drop();
    await other.drop();
  });
});

describe('Bloom stores in front of a MemoryStorage queue (check first: they cannot forget)', () => {
  it('check mode, exactly once inside one process: 100 concurrent adds of one key under different uniqueKeys', async () => {
    const queue = await openQueue();
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store, key: (r) => r.url.split('?')[0]! });
    expect((queue as unknown as Record<symbol, DedupQueueState>)[DEDUP_STATE]).toMatchObject({ mode: 'in-front', inFront: 'check' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => queue.addRequest({ url: `https://one.example/page?v=${i}` })),
    );
    expect(results.filter((r) => !r.wasAlreadyPresent)).toHaveLength(1);
    expect(await enqueued(queue)).toHaveLength(1);
    await queue.drop();
  });

  it('dontFilter requests set no bit', async () => {
    const queue = await openQueue();
    const store = new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store });
    await queue.addRequests([{ url: 'https://nb.example/1', userData: { dontFilter: true } }]);
    await queue.addRequest({ url: 'https://nb.example/2', userData: { dontFilter: true } });
    expect(await store.has(['https://nb.example/1', 'https://nb.example/2'])).toEqual([false, false]);
    expect((await store.stats()).fillRatio).toBe(0);
    expect(await enqueued(queue)).toHaveLength(2);
    await queue.drop();
  });
});

import { Configuration, MemoryStorage, RequestQueue, Statistics } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEDUP_STATE, RedisBloomDedupStore, RedisSetDedupStore, withDedup, type DedupQueueState } from '../src/index.js';
import { ENQUEUE_FILTER_SINK, ENQUEUE_FILTER_SOURCE, slotOf, type EnqueueFilterSink, type EnqueueFilterSource } from '../src/internal.js';
import { connect, deleteKeys, fp, fps, redisUrl, testKey } from './helpers.js';
import { runPlan } from './plan-runner.js';

describe('enqueue-filter plans, run through a test Lua runner on real Redis', () => {
  let redis: Redis;
  const prefix = testKey('seam');
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('a Bloom plan and the store agree bit for bit, and the counters are the store\'s shared ones', async () => {
    const store = await RedisBloomDedupStore.open({ redis, key: `{${prefix}}:bloom`, capacity: 10_000, errorRate: 1e-6, blocks: 2 });
    const source = store[ENQUEUE_FILTER_SOURCE];
    expect(source.redis).toBe(redis);
    expect(new Set(source.enqueueFilterKeys().map(slotOf)).size).toBe(1);
    const viaPlan = fps('plan', 0, 100);
    const plan = source.planEnqueueFilter(viaPlan);
    expect(plan.ops).toHaveLength(100);
    for (const op of plan.ops) {
      expect(op.type).toBe('bits');
      expect(op.offsets).toHaveLength(store.parameters.hashes);
      for (const o of op.offsets!) expect(Number(o)).toBeLessThan(store.parameters.blockBits);
    }
    expect((await runPlan(redis, plan)).every(Boolean)).toBe(true);
    // The store sees what the plan set ...
    expect((await store.has(viaPlan)).every(Boolean)).toBe(true);
    expect((await store.add(viaPlan)).some(Boolean)).toBe(false);
    // ... and the plan sees what the store set.
    const viaStore = fps('store', 0, 100);
    await store.add(viaStore);
    expect((await runPlan(redis, source.planEnqueueFilter([...viaStore, fp('fresh', 1)])))).toEqual([...viaStore.map(() => false), true]);
    const stats = await store.stats();
    expect(stats.itemsAdded).toBe(201);
    expect(stats.filtered).toBe(100);
  });

  it('a set plan SADDs the member into the store\'s set', async () => {
    const store = new RedisSetDedupStore({ redis, key: `${prefix}:spider:dupefilter` });
    const source = store[ENQUEUE_FILTER_SOURCE];
    expect(await runPlan(redis, source.planEnqueueFilter([fp('m', 1), fp('m', 1), fp('m', 2)]))).toEqual([true, false, true]);
    expect(await store.has([fp('m', 1), fp('m', 2), fp('m', 3)])).toEqual([true, true, false]);
    expect(await store.stats()).toMatchObject({ itemsAdded: 2, filtered: 1 });
  });

  it('20 trials of 8 and of 50 clients running a plan for one new key: exactly one new', async () => {
    const clients = Array.from({ length: 50 }, () => new Redis(redisUrl()));
    try {
      const store = await RedisBloomDedupStore.open({ redis, key: `${prefix}:race`, capacity: 10_000, errorRate: 1e-6 });
      const source = store[ENQUEUE_FILTER_SOURCE];
      for (const n of [8, 50]) {
        for (let trial = 0; trial < 20; trial++) {
          const plan = source.planEnqueueFilter([fp(`plan-race-${n}`, trial)]);
          const answers = await Promise.all(clients.slice(0, n).map((c) => runPlan(c, plan)));
          expect(answers.filter((a) => a[0]).length).toBe(1);
        }
      }
    } finally {
      clients.forEach((c) => c.disconnect());
    }
  });
});

/**
 * A sink shaped like crawlee-redis-queue's: filters each batch with the attached source's plan (the runner above)
 * and hands the survivors to the real MemoryStorage client. It proves withDedup's choice and wiring, not the
 * queue's atomicity (test/redis-queue.int.test.ts does that with the real package).
 */
function attachFakeSink(queue: RequestQueue, redis: Redis, canAttach = true) {
  const client = queue.client as unknown as Record<string | symbol, unknown> & {
    batchAddRequests: (requests: { uniqueKey: string; url: string }[], o?: object) => Promise<{ processedRequests: object[]; unprocessedRequests: object[] }>;
  };
  const original = client.batchAddRequests.bind(client);
  const calls = { attach: 0, detach: 0 };
  const sink: EnqueueFilterSink = {
    canAttachEnqueueFilter: (source: EnqueueFilterSource) => canAttach && source.redis === redis,
    attachEnqueueFilter(source, options) {
      calls.attach++;
      client.batchAddRequests = async (requests, o) => {
        const keys = requests.map((r) => (options?.keyOf ?? ((x: { uniqueKey: string }) => x.uniqueKey))(r));
        const isNew = await runPlan(redis, source.planEnqueueFilter(keys));
        const survivors = requests.filter((_, i) => isNew[i]);
        const result = survivors.length > 0 ? await original(survivors, o) : { processedRequests: [], unprocessedRequests: [] };
        const filtered = requests.filter((_, i) => !isNew[i]);
        options?.onFiltered?.(filtered.length);
        return {
          processedRequests: [
            ...result.processedRequests,
            ...filtered.map((r) => ({ uniqueKey: r.uniqueKey, requestId: `id-${r.uniqueKey}`, wasAlreadyPresent: true, wasAlreadyHandled: false })),
          ],
          unprocessedRequests: result.unprocessedRequests,
        };
      };
    },
    detachEnqueueFilter() {
      calls.detach++;
      client.batchAddRequests = original;
    },
  };
  client[ENQUEUE_FILTER_SINK] = sink;
  return calls;
}

describe('withDedup chooses the seam when the queue client offers it', () => {
  let redis: Redis;
  const prefix = testKey('seam-choice');
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  const openQueue = async () => {
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
    return RequestQueue.open(`q-${Math.random().toString(36).slice(2)}`, { config });
  };

  it('attaches, lets the queue filter, and still counts dedup/filtered', async () => {
    const queue = await openQueue();
    const calls = attachFakeSink(queue, redis);
    const store = new RedisBloomDedupStore({ redis, key: `${prefix}:atomic`, capacity: 1000, errorRate: 1e-6 });
    const has = vi.spyOn(store, 'has');
    const statistics = new Statistics();
    withDedup(queue, { store, statistics, key: (r) => r.url.replace(/\?.*$/, '') });
    const state = (queue as unknown as Record<symbol, DedupQueueState>)[DEDUP_STATE]!;
    expect(state.mode).toBe('atomic');
    expect(calls.attach).toBe(1);
    const first = await queue.addRequests([{ url: 'https://a.example/p?x=1' }, { url: 'https://a.example/q' }]);
    expect(first.processedRequests.filter((r) => !r.wasAlreadyPresent)).toHaveLength(2);
    const second = await queue.addRequests([{ url: 'https://a.example/p?x=2' }, { url: 'https://a.example/r' }]);
    expect(second.processedRequests.find((r) => r.uniqueKey.includes('x=2'))?.wasAlreadyPresent).toBe(true);
    expect(second.processedRequests.find((r) => r.uniqueKey.endsWith('/r'))?.wasAlreadyPresent).toBe(false);
    expect(has).not.toHaveBeenCalled();
    expect(state.filtered).toBe(1);
    expect(statistics.toJSON()['dedup/filtered' as never]).toBe(1);
    expect(await store.stats()).toMatchObject({ itemsAdded: 3, filtered: 1 });
    expect(await queue.handledCount()).toBe(0);
    await queue.drop();
  });

  it('filters in front when the sink cannot attach (e.g. another Redis)', async () => {
    const queue = await openQueue();
    const calls = attachFakeSink(queue, redis, false);
    const store = new RedisBloomDedupStore({ redis, key: `${prefix}:front`, capacity: 1000, errorRate: 1e-6 });
    withDedup(queue, { store });
    expect((queue as unknown as Record<symbol, DedupQueueState>)[DEDUP_STATE]!.mode).toBe('in-front');
    expect(calls.attach).toBe(0);
    await queue.addRequests([{ url: 'https://b.example/1' }]);
    expect(await store.has(['https://b.example/1'])).toEqual([true]);
    await queue.drop();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { workerStatsKeys } from '../../src/stats/worker-stats-keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FAILED_STATE = 5; // Crawlee's RequestState.ERROR_HANDLER: marked handled from the error handler

describe('worker stats', () => {
  it('a worker publishes its record and counters in the background; close marks it stopped', async () => {
    world = createWorld(backend);
    const sc = world.storageClient({ workerStats: { intervalSecs: 0.2, ttlSecs: 5 } });
    await sc.requestQueues().getOrCreate(world.name);
    const c = sc.requestQueue(world.name, { clientKey: 'w1' }) as Awaited<ReturnType<QueueWorld['client']>>;
    await c.batchAddRequests([req(1), req(2), req(3), req(4)]);
    await c.batchAddRequests([req(1)]); // already present
    const admin = world.admin();
    // Nothing published before the first lock: adding alone does not make a worker.
    expect(await admin.workers()).toEqual([]);

    const { items } = await c.listAndLockHead({ limit: 3, lockSecs: 30 });
    await c.updateRequest({ ...req(1), id: items[0]!.id, handledAt: new Date().toISOString() });
    await c.updateRequest({ ...req(2), id: items[1]!.id, handledAt: new Date().toISOString(), userData: { __crawlee: { state: FAILED_STATE } } });
    await c.updateRequest({ ...req(3), id: items[2]!.id, retryCount: 1 }); // reclaim
    await sleep(500);

    const [worker] = await admin.workers();
    expect(worker).toMatchObject({ state: 'alive', clientKey: 'w1', pid: process.pid, handled: 1, failed: 1, retried: 1, alreadyPresent: 1, locks: 0, intervalMs: 200, ttlMs: 5000 });
    expect(worker!.id).toMatch(new RegExp(`:${process.pid}:`));
    expect(worker!.lastSeen.getTime()).toBeGreaterThanOrEqual(worker!.startedAt!.getTime());
    expect(await admin.crawlStats()).toEqual({ handled: 1, failed: 1, retried: 1, alreadyPresent: 1 });
    // The record expires on its own (TTL) and sits under the queue's hash tag.
    const key = workerStatsKeys(c.keys).worker(worker!.id);
    expect(key.startsWith(c.keys.tag)).toBe(true);
    expect(await world.redis.pttl(key)).toBeGreaterThan(3000);

    // Counters of the last interval are not lost on close.
    const more = await c.listAndLockHead({ limit: 1, lockSecs: 30 });
    await c.updateRequest({ ...req(3), id: more.items[0]!.id, handledAt: new Date().toISOString() });
    await sc.close();
    // Its last interval had a rate; stopped, it finishes nothing any more, so it reads 0 requests/s.
    expect(Number(await world.redis.hget(key, 'rate'))).toBeGreaterThan(0);
    const [stopped] = await admin.workers();
    expect(stopped).toMatchObject({ state: 'stopped', handled: 2, rate: 0, lapses: 0 });
    expect((await admin.crawlStats()).handled).toBe(2);
    // The last record outlives the TTL (it is kept for the retention, 600 s by default), so a finished worker
    // stays "stopped" with its final counters instead of turning "dead" 5 s after the end.
    expect(await world.redis.pttl(key)).toBeGreaterThan(500_000);
  });

  it('a request handled by another worker meanwhile (a refetch after a lapsed lock) is not counted as succeeded twice', async () => {
    for (const shards of [1, 3]) {
      if (shards > 1) await world.cleanup();
      world = createWorld(backend, `refetch-${shards}`, { shards, workerStats: { intervalSecs: 0.1, ttlSecs: 5 } });
      const a = await world.client('slow');
      const b = await world.client('fast');
      await a.batchAddRequests([req(1), req(2)]);
      const { items } = await a.listAndLockHead({ limit: 2, lockSecs: 30 });
      const first = items.find((item) => item.uniqueKey === req(1).uniqueKey)!;
      // The other worker got the request (its lock had lapsed) and finished it first. (A worker publishes from its
      // first lock call on.)
      await b.listAndLockHead({ limit: 1, lockSecs: 30 });
      await b.updateRequest({ ...req(1), id: first.id, handledAt: new Date().toISOString() });
      const late = await a.updateRequest({ ...req(1), id: first.id, handledAt: new Date().toISOString() });
      expect(late.wasAlreadyHandled).toBe(true);
      const second = items.find((item) => item.uniqueKey === req(2).uniqueKey)!;
      await a.updateRequest({ ...req(2), id: second.id, handledAt: new Date().toISOString() });
      await sleep(400);
      const admin = world.admin();
      const byClient = Object.fromEntries((await admin.workers()).map((w) => [w.clientKey, w.handled]));
      expect(byClient, `shards ${shards}`).toEqual({ slow: 1, fast: 1 });
      expect((await admin.crawlStats()).handled).toBe(2);
      expect((await admin.stats()).handled).toBe(2);
    }
  });

  it('a worker silent longer than its TTL shows as dead, and is pruned after the retention', async () => {
    world = createWorld(backend);
    const c = await world.client('w1', { workerStats: { intervalSecs: 0.1, ttlSecs: 0.3 } });
    await c.listAndLockHead({ limit: 1, lockSecs: 30 });
    await sleep(150);
    const admin = world.admin();
    expect((await admin.workers()).map((w) => w.state)).toEqual(['alive']);
    // Stop the timer without a final publish, as a killed process would (no close()).
    clearInterval((c as unknown as { core: { workerStats: { timer: NodeJS.Timeout } } }).core.workerStats.timer);
    await sleep(600);
    const [dead] = await admin.workers();
    expect(dead).toMatchObject({ state: 'dead', host: '', pid: 0 });
    expect(await admin.workers({ retentionSecs: 0.1 })).toEqual([]);
    expect(await world.redis.zcard(workerStatsKeys(c.keys).workers)).toBe(0);
  });

  it('workerStats: false publishes nothing; bad settings are rejected before anything is written', async () => {
    world = createWorld(backend);
    const c = await world.client('w1', { workerStats: false });
    await c.addRequest(req(1));
    await c.listAndLockHead({ limit: 1, lockSecs: 30 });
    await sleep(50);
    const keys = workerStatsKeys(c.keys);
    expect(await world.redis.exists(keys.workers, keys.crawl)).toBe(0);
    expect(() => world.storageClient({ workerStats: { intervalSecs: 0 } })).toThrow(InvalidOptionsError);
    expect(() => world.storageClient({ workerStats: { intervalSecs: 10, ttlSecs: 10 } })).toThrow(/more than intervalSecs/);
    expect(() => world.storageClient({ workerStats: 'yes' as never })).toThrow(InvalidOptionsError);
  });

  it("crawlStats reads the attached enqueue filter's counter hash (dedup hits of the filter)", async () => {
    world = createWorld(backend);
    const c = await world.client('w1', { workerStats: { intervalSecs: 0.1, ttlSecs: 5 } });
    // An exact-set filter through the seam (what crawlee-bloom-dedup's RedisSetDedupStore plans), keys on the queue's tag.
    const set = `${c.keys.tag}:seen`;
    const counter = `${c.keys.tag}:seen-stats`;
    c.attachEnqueueFilter({
      redis: world.redis,
      enqueueFilterKeys: () => [set, counter],
      planEnqueueFilter: (keys) => ({
        keys: [set, counter],
        ops: keys.map((member) => ({ type: 'member' as const, key: 0, member })),
        counter: { key: 1, newField: 'itemsAdded', filteredField: 'filtered' },
      }),
    }, { keyOf: (r) => r.url });
    // Same URL, other uniqueKeys: the queue would take them, the filter rejects them.
    await c.batchAddRequests([req(1), req(1, { uniqueKey: 'other-1' }), req(1, { uniqueKey: 'other-2' })]);
    await c.listAndLockHead({ limit: 1, lockSecs: 30 });
    await sleep(300);
    expect(await world.admin().crawlStats()).toMatchObject({ dedupFiltered: 2, dedupKey: counter });
  });

  it('memoryUsage samples the queue keys; unreadable worker records are reported, not thrown', async () => {
    world = createWorld(backend);
    const c = await world.client('w1');
    await c.batchAddRequests([req(1), req(2)]);
    const admin = world.admin();
    const memory = await admin.memoryUsage();
    expect(memory.bytes).toBeGreaterThan(0);
    expect(Object.keys(memory.byKey)).toEqual(expect.arrayContaining(['meta', 'data', 'fifo']));
    const keys = workerStatsKeys(c.keys);
    await world.redis.zadd(keys.workers, Date.now(), 'foreign');
    await world.redis.set(keys.worker('foreign'), 'not a hash');
    expect(await admin.workers()).toMatchObject([{ id: 'foreign', state: 'unreadable' }]);
    await world.redis.del(keys.worker('foreign'), keys.workers);
  });
});

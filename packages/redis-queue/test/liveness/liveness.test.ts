// Worker liveness on one real Redis: heartbeats keep a live owner's locks however long it works, a gone owner's
// locks return one liveness window after its last beat (however long their lock time), a blocked event loop is a
// counted lapse, on plain, sharded and polite queues.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { LockLostError } from '../../src/errors/lock-lost-error.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import type { QueueCore } from '../../src/queue/queue-core.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req, type QueueWorld } from '../helpers/world.js';

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
  world = undefined as unknown as QueueWorld;
});

const FAST = { heartbeatSecs: 0.05, windowSecs: 0.5 };
const HOUR = 3600;
const coreOf = (client: RedisRequestQueueClient) => (client as unknown as { core: QueueCore }).core;

/** A client whose storage client the test can close (a worker that stops beating, as a killed one does). */
async function worker(w: QueueWorld, clientKey: string, options: Record<string, unknown> = {}) {
  const sc = w.storageClient({ liveness: FAST, ...options });
  await sc.requestQueues().getOrCreate(w.name);
  return { sc, client: sc.requestQueue(w.name, { clientKey }) as RedisRequestQueueClient };
}

describe('worker liveness', () => {
  it("the admin counts a live owner's locks as locked past their check time, and a gone owner's not", async () => {
    world = createWorld(backend, 'live-admin');
    const a = await worker(world, 'a');
    await a.client.batchAddRequests([req(1), req(2), req(3)]);
    expect(names((await a.client.listAndLockHead({ limit: 3, lockSecs: HOUR })).items)).toEqual(['1', '2', '3']);
    // Past the window: no lock script ran since, so the locks' scores are past, but the owner still beats.
    await sleep(1200);
    expect((await world.admin().stats()).locked).toBe(3);
    await a.sc.close(); // stops beating
    await sleep(1200);
    expect((await world.admin().stats()).locked).toBe(0);
  });

  it("a gone owner's locks return one window after its last beat, however long their lock time; a started one counts one stall", async () => {
    world = createWorld(backend, 'live-gone');
    const a = await worker(world, 'a');
    const b = await worker(world, 'b');
    await a.client.batchAddRequests([req(1), req(2), req(3)]);
    expect(names((await a.client.listAndLockHead({ limit: 3, lockSecs: HOUR })).items)).toEqual(['1', '2', '3']);
    await a.client.prolongRequestLock(requestIdOf('https://example.com/1'), { lockSecs: HOUR });
    await sleep(200);
    // Alive: nothing for b, and the queue is not finished.
    const early = await b.client.listAndLockHead({ limit: 3, lockSecs: HOUR });
    expect(early.items).toEqual([]);
    expect(early.queueHasLockedRequests).toBe(true);

    await a.sc.close(); // stops beating, as a SIGKILLed worker does
    const gone = Date.now();
    let items: string[] = [];
    while (items.length === 0 && Date.now() - gone < 5000) {
      items = names((await b.client.listAndLockHead({ limit: 3, lockSecs: HOUR })).items);
      if (items.length === 0) await sleep(20);
    }
    expect(items).toEqual(['1', '2', '3']);
    expect(Date.now() - gone).toBeLessThan(1500);
    const keys = world.admin().keys;
    expect(await world.redis.hget(keys.stalls, requestIdOf('https://example.com/1'))).toBe('1');
    expect(await world.redis.hlen(keys.stalls)).toBe(1);
    expect(await world.redis.hget(keys.meta, 'ownerGoneLocks')).toBe('3');
    await b.sc.close();
  });

  it('a live owner keeps a started lock through 10 minutes of Redis time with a 60 s lock time, and nobody else gets it', async () => {
    world = createWorld(backend, 'live-slow');
    // The Redis clock runs 100 times faster than real time: 10 minutes of Redis time in 6 s. The heartbeat interval is
    // real time (0.1 s = 10 s of Redis time), the window Redis time (60 s = 0.6 s real).
    const started = performance.now();
    const fast = () => Math.round((performance.now() - started) * 99);
    const options = { liveness: { heartbeatSecs: 0.1, windowSecs: 60 }, clockOffsetMs: fast };
    const a = await worker(world, 'a', options);
    const b = await worker(world, 'b', options);
    await a.client.batchAddRequests([req(1)]);
    expect(names((await a.client.listAndLockHead({ limit: 1, lockSecs: 60 })).items)).toEqual(['1']);
    const id = requestIdOf('https://example.com/1');
    await a.client.prolongRequestLock(id, { lockSecs: 60 });
    let polls = 0;
    while (fast() < 600_000) {
      const head = await b.client.listAndLockHead({ limit: 1, lockSecs: 60 });
      expect(head.items).toEqual([]);
      expect(head.queueHasLockedRequests).toBe(true);
      polls++;
      await sleep(25);
    }
    expect(polls).toBeGreaterThan(50);
    // Still a's own lock: it finishes the request, exactly once.
    expect(await world.redis.hget(world.admin().keys.owner, id)).toBe('a');
    const info = await a.client.updateRequest({ ...req(1), id, handledAt: new Date().toISOString() });
    expect(info.wasAlreadyHandled).toBe(false);
    expect(await world.redis.hlen(world.admin().keys.stalls)).toBe(0);
    await a.sc.close();
    await b.sc.close();
  });

  it('a worker whose event loop is blocked past the window loses its locks (a refetch), and counts the lapse', async () => {
    world = createWorld(backend, 'live-lapse');
    const a = await worker(world, 'a', { liveness: { heartbeatSecs: 0.05, windowSecs: 0.3 } });
    const b = await worker(world, 'b', { liveness: { heartbeatSecs: 0.05, windowSecs: 0.3 } });
    await a.client.batchAddRequests([req(1), req(2)]);
    await a.client.listAndLockHead({ limit: 2, lockSecs: HOUR });
    const id1 = requestIdOf('https://example.com/1');
    await a.client.prolongRequestLock(id1, { lockSecs: HOUR });
    await b.client.listAndLockHead({ limit: 0, lockSecs: HOUR }); // b's format check done: its next call is one script
    await sleep(150);
    // Block this event loop (a's timer cannot fire), then b asks before a's timer gets its turn.
    const until = performance.now() + 600;
    while (performance.now() < until) {
      /* a CPU-bound handler */
    }
    expect(names((await b.client.listAndLockHead({ limit: 2, lockSecs: HOUR })).items)).toEqual(['1', '2']);
    await sleep(200);
    expect(coreOf(a.client).heartbeat!.lapses).toBe(1);
    await expect(a.client.prolongRequestLock(id1, { lockSecs: HOUR })).rejects.toBeInstanceOf(LockLostError);
    await a.sc.close();
    await b.sc.close();
  });

  it('liveness: false keeps lock-time semantics (a silent owner keeps its lock until its lock time)', async () => {
    world = createWorld(backend, 'live-off');
    const a = await worker(world, 'a', { liveness: false });
    const b = await worker(world, 'b');
    await a.client.batchAddRequests([req(1)]);
    await a.client.listAndLockHead({ limit: 1, lockSecs: 2 });
    await a.sc.close();
    await sleep(700);
    expect((await b.client.listAndLockHead({ limit: 1, lockSecs: HOUR })).items).toEqual([]);
    world.advance(2001);
    expect(names((await b.client.listAndLockHead({ limit: 1, lockSecs: HOUR })).items)).toEqual(['1']);
    await b.sc.close();
  });

  it('a client that stopped asking for work and processes nothing stops beating: its buffered locks return', async () => {
    world = createWorld(backend, 'live-idle');
    const a = await worker(world, 'a');
    const b = await worker(world, 'b');
    await a.client.batchAddRequests([req(1)]);
    await a.client.listAndLockHead({ limit: 1, lockSecs: 0.2 }); // never started; a's crawler stopped
    await sleep(1200);
    expect(names((await b.client.listAndLockHead({ limit: 1, lockSecs: HOUR })).items)).toEqual(['1']);
    await a.sc.close();
    await b.sc.close();
  });

  it.each([
    ['sharded', { shards: 4 }],
    ['polite', { politeness: { minDelaySecs: 0, maxConcurrencyPerHost: 1 } }],
  ])("a gone owner's locks return on a %s queue", async (kind, options) => {
    world = createWorld(backend, `live-${kind}`, options);
    const a = await worker(world, 'a');
    const b = await worker(world, 'b');
    const requests = [1, 2, 3, 4, 5, 6].map((n) => ({ ...req(n), url: `https://h${n}.example.com/${n}`, uniqueKey: `https://h${n}.example.com/${n}` }));
    await a.client.batchAddRequests(requests);
    let locked = 0;
    while (locked < 6) locked += (await a.client.listAndLockHead({ limit: 6, lockSecs: HOUR })).items.length;
    await a.sc.close();
    const gone = Date.now();
    const got = new Set<string>();
    while (got.size < 6 && Date.now() - gone < 5000) {
      for (const item of (await b.client.listAndLockHead({ limit: 6, lockSecs: HOUR })).items) got.add(item.url);
      await sleep(20);
    }
    expect(got.size).toBe(6);
    expect(Date.now() - gone).toBeLessThan(2000);
    await b.sc.close();
  });

  it('refuses bad settings with a typed error that says what to do', () => {
    const make = (liveness: unknown) => () => new RedisStorageClient({ redis: 'redis://127.0.0.1:1', liveness: liveness as never });
    expect(make({ heartbeatSecs: 1, windowSecs: 1 })).toThrow(/at least twice heartbeatSecs/);
    expect(make({ heartbeatSecs: 0 })).toThrow(InvalidOptionsError);
    expect(make({ windowsecs: 5 })).toThrow(/windowSecs/);
    expect(make('yes')).toThrow(/liveness must be true, false/);
  });
});

// Dispatch that knows when the next host opens: a polite lock call that finds every host waiting learns the first
// host's time from the lock script and waits until then (bounded) instead of answering empty; a worker that finds
// nothing at all backs off instead of asking Redis at Crawlee's pace.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';
import { hp, hreq } from './helpers.js';

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

const handled = (client: RedisRequestQueueClient, item: { id: string; url: string }) =>
  client.updateRequest({ ...hreq('a.test', item.url.split('/').pop()!), id: item.id, handledAt: new Date().toISOString() });

/** Counts the commands one client sends (a script counts once). */
function countCommands(client: RedisRequestQueueClient): { n: number } {
  const counter = { n: 0 };
  const redis = client.redis as unknown as { sendCommand: (...args: unknown[]) => unknown };
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (...args: unknown[]) => {
    counter.n++;
    return send(...args);
  };
  return counter;
}

describe('dispatch that knows when the next host opens', () => {
  it.each([
    ['one shard', {}],
    ['3 shards', { shards: 3 }],
  ])('a polite call on a waiting host waits for it and locks then (%s)', async (_, layout) => {
    world = createWorld(backend, 'next-open', { politeness: { minDelaySecs: 0.4, maxConcurrencyPerHost: 1 }, maxHostWaitSecs: 2, ...layout });
    const client = await world.client('a');
    await client.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    const first = await client.listAndLockHead({ limit: 5, lockSecs: 60 });
    expect(hp(first.items)).toEqual(['a.test/1']);
    await handled(client, first.items[0]!);
    const t0 = performance.now();
    const second = await client.listAndLockHead({ limit: 5, lockSecs: 60 });
    const waited = performance.now() - t0;
    expect(hp(second.items)).toEqual(['a.test/2']);
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(1500);
  });

  it('a host that opens later than the bound is not waited for', async () => {
    world = createWorld(backend, 'next-open-far', { politeness: { minDelaySecs: 30, maxConcurrencyPerHost: 1 }, maxHostWaitSecs: 2 });
    const client = await world.client('a');
    await client.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    const first = await client.listAndLockHead({ limit: 5, lockSecs: 60 });
    await handled(client, first.items[0]!);
    const t0 = performance.now();
    const second = await client.listAndLockHead({ limit: 5, lockSecs: 60 });
    expect(second.items).toEqual([]);
    expect(second.queueHasLockedRequests).toBe(true);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe("Crawlee's look-ahead call right after a polite hand-out", () => {
  it.each([
    ['one shard', {}, 0],
    ['3 shards', { shards: 3 }, 1],
  ])('is answered without Redis while nothing can open (%s), and the next hand-out still comes at its time', async (_, layout, lookAheadCommands) => {
    world = createWorld(backend, 'quiet', { politeness: { minDelaySecs: 0.3, maxConcurrencyPerHost: 1 }, maxHostWaitSecs: 2, ...layout });
    const client = await world.client('a');
    await client.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    const first = await client.listAndLockHead({ limit: 25, lockSecs: 60 });
    expect(hp(first.items)).toEqual(['a.test/1']);
    // RequestQueueV2 asks again with one request in its head, before it starts it: nothing can open for 0.3 s.
    const counter = countCommands(client);
    const t0 = performance.now();
    const ahead = await client.listAndLockHead({ limit: 25, lockSecs: 60 });
    expect(ahead.items).toEqual([]);
    expect(ahead.queueHasLockedRequests).toBe(true);
    expect(performance.now() - t0).toBeLessThan(100);
    // A sharded queue's quiet time speaks for one shard only: that call walks the shards as before.
    if (lookAheadCommands === 0) expect(counter.n).toBe(0);
    else expect(counter.n).toBeGreaterThan(0);
    await client.getRequest(first.items[0]!.id);
    await handled(client, first.items[0]!);
    const second = await client.listAndLockHead({ limit: 25, lockSecs: 60 });
    expect(hp(second.items)).toEqual(['a.test/2']);
  });
});

describe('a worker with nothing at all backs off', () => {
  it.each([
    ['one shard', {}],
    ['4 shards', { shards: 4 }],
  ])('an idle client asks Redis a few times per second at most, and an add ends the back-off (%s)', async (_, layout) => {
    world = createWorld(backend, 'idle', { idleBackoff: true, ...layout });
    const holder = await world.client('holder');
    const idle = await world.client('idle');
    await holder.batchAddRequests([req(1)]);
    let held = 0;
    while (held === 0) held = (await holder.listAndLockHead({ limit: 1, lockSecs: 60 })).items.length;
    await idle.listAndLockHead({ limit: 25, lockSecs: 60 }); // format check done
    const sent = countCommands(idle);
    const started = performance.now();
    let calls = 0;
    while (performance.now() - started < 2000) {
      const head = await idle.listAndLockHead({ limit: 25, lockSecs: 60 });
      expect(head.items).toEqual([]);
      expect(head.queueHasLockedRequests).toBe(true);
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const shards = 'shards' in layout ? layout.shards : 1;
    // Without a back-off every call is one script per shard (about 80 calls in 2 s on a quiet machine); with it,
    // three empty answers and then one probe per step (0.1, 0.2, 0.4, 0.8 s): TIME and two plain commands per shard
    // (src/queue/idle-probe.ts; what Redis runs is measured in test/integration/idle-probe.test.ts).
    expect(calls).toBeGreaterThan(15);
    expect(sent.n).toBeLessThanOrEqual(3 * shards + 5 * (1 + 2 * shards));
    expect(sent.n).toBeLessThan((calls * shards) / 2);
    await idle.batchAddRequests([req(2)]);
    const after = await idle.listAndLockHead({ limit: 25, lockSecs: 60 });
    expect(after.items.map((i) => i.url)).toEqual(['https://example.com/2']);
  });
});

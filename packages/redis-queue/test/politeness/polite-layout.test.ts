// A polite queue on the compact pending layout (docs/compact-frontier.md 9, includes/queue-order.lua): its available
// requests live only in the host queues (never in the fifo / front lists or back, which only the unpolite lock
// script reads), a locked one keeps its order in `held` as on any queue, and a request that leaves the queue while
// available counts nothing in `stale` (its host-queue entry is dropped by the polite lock script).
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
import { queueKeys } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';
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
});

const LOCK = { limit: 10, lockSecs: 60 };
const id = (host: string, path: string | number) => requestIdOf(`http://${host}/${path}`);

describe('politeness on the compact pending layout', () => {
  it('keeps available requests only in host queues, the held order of a locked one, and no stale count', async () => {
    world = createWorld(backend, 'polite-layout');
    const w = await world.client('w', { politeness: { minDelaySecs: 0, maxConcurrencyPerHost: 1 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('b.test', 1)]);
    await w.batchAddRequests([hreq('a.test', 'f')], { forefront: true });
    const keys = queueKeys(world.keyPrefix, world.name);
    expect(await world.redis.exists(keys.fifo, keys.front, keys.back, keys.stale)).toBe(0);
    expect(await world.redis.hlen(keys.data)).toBe(4);
    // listHead (Crawlee's isFinished path) sees them through the host queues, forefront first.
    expect(hp((await w.listHead({ limit: 10 })).items)).toEqual(['a.test/f', 'a.test/1', 'a.test/2', 'b.test/1']);

    const first = await w.listAndLockHead(LOCK);
    expect(hp(first.items).sort()).toEqual(['a.test/f', 'b.test/1']);
    const held = await world.redis.hgetall(keys.held);
    expect(Object.keys(held).sort()).toEqual([id('a.test', 'f'), id('b.test', 1)].sort());
    expect(Number(held[id('a.test', 'f')])).toBeLessThan(0); // forefront order
    // Released by its owner: back in its host's queue at its held order (first again), not in back.
    expect(await w.deleteRequestLock(id('a.test', 'f'))).toBeUndefined();
    expect(await world.redis.exists(keys.back, keys.fifo, keys.front)).toBe(0);
    expect(await world.redis.hexists(keys.held, id('a.test', 'f'))).toBe(0);

    // Deleted while available: nothing counted stale; the polite lock drops its host-queue entry.
    await world.admin().forget([hreq('a.test', 'f').uniqueKey]);
    expect(await world.redis.exists(keys.stale)).toBe(0);
    await w.updateRequest({ ...first.items.find((r) => r.url.includes('b.test'))!, handledAt: new Date().toISOString() });
    const next = await w.listAndLockHead(LOCK);
    expect(hp(next.items)).toEqual(['a.test/1']);
    expect(await w.get()).toMatchObject({ totalRequestCount: 3, handledRequestCount: 1, pendingRequestCount: 2 });
    expect(await world.redis.exists(keys.fifo, keys.front, keys.back, keys.stale)).toBe(0);
  });
});

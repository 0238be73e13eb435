// The pending layout of format 2 (layout C, docs/compact-frontier.md): FIFO list, forefront list, `back` for
// returned requests, `held` for the order of locked ones, `stale` for list entries that are no longer a request's
// place. Each test pins one mechanism: without it, the order or the exactly-once delivery breaks.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
import { queueKeys } from '../../src/core/keys.js';
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
});

const id = (n: number | string) => requestIdOf(`https://example.com/${n}`);
const handled = (n: number | string) => ({ ...req(n), id: id(n), handledAt: new Date().toISOString() });

describe('pending layout (lists + back + held + stale)', () => {
  it('a pending request costs one data entry and one list entry; a handled one leaves data and every order structure', async () => {
    world = createWorld(backend, 'layout', { handledRequests: 'request' });
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await c.batchAddRequests([req('f1')], { forefront: true });
    const keys = queueKeys(world.keyPrefix, world.name);
    expect(await world.redis.hlen(keys.data)).toBe(4);
    expect(await world.redis.lrange(keys.fifo, 0, -1)).toEqual([id(1), id(2), id(3)]);
    expect(await world.redis.lrange(keys.front, 0, -1)).toEqual([`1 ${id('f1')}`]);
    const { items } = await c.listAndLockHead({ limit: 2, lockSecs: 60 });
    expect(names(items)).toEqual(['f1', '1']);
    // Locked: the order lives with the lock, not in a sorted set of every request.
    expect(await world.redis.hgetall(keys.held)).toEqual({ [id('f1')]: '-1', [id(1)]: '1' });
    await c.updateRequest(handled('f1'));
    await c.updateRequest(handled(1));
    expect(await world.redis.hlen(keys.data)).toBe(2);
    expect(await world.redis.hlen(keys.held)).toBe(0);
    expect(await world.redis.hlen(keys.done)).toBe(2);
    expect(await world.redis.exists(keys.back, keys.stale)).toBe(0);
    expect(await c.get()).toMatchObject({ totalRequestCount: 4, handledRequestCount: 2, pendingRequestCount: 2 });
  });

  it('expired and released locks return at their original place between the list heads', async () => {
    world = createWorld(backend, 'return');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3), req(4)]);
    expect(names((await c.listAndLockHead({ limit: 2, lockSecs: 10 })).items)).toEqual(['1', '2']);
    await c.batchAddRequests([req('f1')], { forefront: true });
    expect(names((await c.listAndLockHead({ limit: 1, lockSecs: 10 })).items)).toEqual(['f1']);
    await c.deleteRequestLock(id(2)); // released: back at order 2, before 3
    world.advance(10_001); // 1 and f1 expire: back at orders 1 and -1
    expect(names((await c.listAndLockHead({ limit: 5, lockSecs: 10 })).items)).toEqual(['f1', '1', '2', '3', '4']);
  });

  it('a request deleted while available and added again comes at its new place, once (its old list entry is skipped)', async () => {
    world = createWorld(backend, 'stale');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await world.admin().forget([req(1).uniqueKey]);
    await c.batchAddRequests([req(4), req(1)]);
    const keys = queueKeys(world.keyPrefix, world.name);
    // The old entry stays in the list (removing it would be O(N)) and is counted stale; the new place is exact.
    expect(await world.redis.hget(keys.stale, id(1))).toBe('1');
    const { items } = await c.listAndLockHead({ limit: 10, lockSecs: 60 });
    expect(names(items)).toEqual(['2', '3', '4', '1']);
    expect(await world.redis.exists(keys.stale)).toBe(0);
    expect(await world.redis.llen(keys.fifo)).toBe(0);
    expect(await c.get()).toMatchObject({ totalRequestCount: 4, pendingRequestCount: 4 });
  });

  it('a re-added request whose old entry is still queued keeps its exact FIFO place (a placeholder holds it)', async () => {
    world = createWorld(backend, 'placeholder');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2)]);
    await world.admin().forget([req(1).uniqueKey]);
    await c.batchAddRequests([req(3), req(1), req(5)]);
    await c.batchAddRequests([req('f')], { forefront: true });
    const keys = queueKeys(world.keyPrefix, world.name);
    expect(await world.redis.zrange(keys.back, '0', '-1', 'WITHSCORES')).toEqual([id(1), '4']);
    expect(names((await c.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['f', '2', '3', '1', '5']);
  });

  it('a reclaim with forefront of an available request moves it to the head, and it is handed out once', async () => {
    world = createWorld(backend, 'move');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await c.updateRequest({ ...req(3), id: id(3) }, { forefront: true });
    const { items } = await c.listAndLockHead({ limit: 10, lockSecs: 60 });
    expect(names(items)).toEqual(['3', '1', '2']);
    expect((await c.listAndLockHead({ limit: 10, lockSecs: 60 })).items).toEqual([]);
  });

  it('handled without a lock, or dead-lettered while available: the list entry is skipped, counters exact', async () => {
    world = createWorld(backend, 'unlocked');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    expect(await c.updateRequest(handled(2))).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: false });
    expect(names((await c.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['1', '3']);
    expect(await c.addRequest(req(2))).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: true });
    expect(await c.get()).toMatchObject({ totalRequestCount: 3, handledRequestCount: 1, pendingRequestCount: 2 });
  });

  it('prolong with forefront: the request goes to the head once its lock ends', async () => {
    world = createWorld(backend, 'prolong-front');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await c.listAndLockHead({ limit: 1, lockSecs: 10 });
    await c.batchAddRequests([req('f')], { forefront: true });
    await c.prolongRequestLock(id(1), { lockSecs: 10, forefront: true });
    world.advance(30_000);
    expect(names((await c.listAndLockHead({ limit: 10, lockSecs: 10 })).items)).toEqual(['1', 'f', '2', '3']);
  });

  it('listHead lists unhandled requests in queue order, locked ones at their held place', async () => {
    world = createWorld(backend, 'list-head');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3)]);
    await c.listAndLockHead({ limit: 1, lockSecs: 60 });
    await c.batchAddRequests([req('f')], { forefront: true });
    expect(names((await c.listHead({ limit: 10 })).items)).toEqual(['f', '1', '2', '3']);
  });
});

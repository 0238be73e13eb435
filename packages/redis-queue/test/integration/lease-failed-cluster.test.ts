// The producer lease and the failed index on a local 3-master Redis Cluster, through ioredis 6's Cluster client:
// their keys share the queue's hash tag, so every script and admin read stays on one slot.
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
beforeAll(async () => {
  backend = await createBackend('cluster-ioredis6', inject('redisUrl'));
}, 120_000);
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world?.cleanup();
});

const failedUpdate = (n: number, id: string) => ({
  ...req(n),
  id,
  handledAt: new Date().toISOString(),
  retryCount: 2,
  errorMessages: ['boom'],
  userData: { __crawlee: { state: 5 } }, // Crawlee's RequestState.ERROR_HANDLER
});

it.each(['keep', 'forget'] as const)('failed index, requeue and a producer lease on a Cluster (%s mode)', async (mode) => {
  world = createWorld(backend, `cluster-${mode}`);
  const c = await world.client('worker', { failedRequests: mode });
  const lease = await c.holdOpen({ leaseSecs: 30 });
  await c.batchAddRequests([req(1), req(2)]);
  const { items } = await c.listAndLockHead({ limit: 2, lockSecs: 60 });
  const one = items.find((i) => i.url === req(1).url)!;
  const two = items.find((i) => i.url === req(2).url)!;
  await c.updateRequest(failedUpdate(1, one.id));
  await c.updateRequest({ ...req(2), id: two.id, handledAt: new Date().toISOString() });
  const admin = world.admin();
  expect(await admin.stats()).toMatchObject(mode === 'keep' ? { total: 2, pending: 0, handled: 2 } : { total: 1, pending: 0, handled: 1 });
  expect(await admin.failed()).toMatchObject([{ id: one.id, state: mode === 'keep' ? 'kept' : 'forgotten', retryCount: 2 }]);
  // Nothing pending, no lock: only the lease keeps the queue open.
  expect((await c.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(true);
  await lease.release();
  expect((await c.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(false);
  expect(await admin.requeueFailed()).toEqual({ requeued: 1, alreadyQueued: 0, skipped: 0, missing: 0 });
  expect(await admin.stats()).toMatchObject({ total: 2, pending: 1, handled: 1 });
  const head = await c.listAndLockHead({ limit: 2, lockSecs: 10 });
  expect(head.items.map((i) => i.url)).toEqual([req(1).url]);
  expect(await c.getRequest(one.id)).toMatchObject({ retryCount: 0, errorMessages: ['boom'] });
  expect(await admin.forget([req(1).uniqueKey])).toEqual({ forgotten: [req(1).uniqueKey], missing: [], keptAsBits: [] });
  expect(await admin.stats()).toMatchObject({ total: 1, pending: 0, handled: 1, locked: 0 });
}, 60_000);

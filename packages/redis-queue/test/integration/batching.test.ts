import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockLostError } from '../../src/errors/lock-lost-error.js';
import { RequestAlreadyHandledError } from '../../src/errors/request-already-handled-error.js';
import { RequestNotFoundError } from '../../src/errors/request-not-found-error.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { commandName } from '../../src/core/scripts.js';
import { req } from '../helpers/world.js';

// A private server: the script-call counts must see only this test's commands.
let server: RedisServerHandle;
const connections: Redis[] = [];
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  for (const redis of connections) redis.disconnect();
  await server.destroy();
});

/** Script calls per script name seen by the server while `work` runs (from MONITOR). */
async function scriptCalls(work: () => Promise<void>): Promise<number> {
  const monitorOwner = new Redis(server.url);
  const monitor = await monitorOwner.monitor();
  let calls = 0;
  monitor.on('monitor', (_time: string, args: string[]) => {
    const command = args[0]?.toLowerCase();
    if (command === 'evalsha' || command === 'eval') calls++;
  });
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 100)); // MONITOR lines arrive after the replies
  } finally {
    monitor.disconnect();
    monitorOwner.disconnect();
  }
  return calls;
}

async function open(prefix: string, clientKey: string, options: { fastProlong?: boolean; maxStalls?: number; handledRequests?: 'request' | 'key' | 'bits' } = {}) {
  const redis = new Redis(server.url);
  connections.push(redis);
  const storage = new RedisStorageClient({ redis, keyPrefix: prefix, ...options });
  await storage.requestQueues().getOrCreate('q');
  return { redis, client: storage.requestQueue('q', { clientKey }) as RedisRequestQueueClient };
}

describe('prolongs and updates of one event-loop turn share one script call', () => {
  it('50 concurrent prolongs and 50 concurrent handled marks: 2 script calls, each caller its own result', async () => {
    const { client } = await open('batch-a', 'a');
    await client.batchAddRequests(Array.from({ length: 50 }, (_, i) => req(i)));
    const { items } = await client.listAndLockHead({ limit: 50, lockSecs: 60 });
    expect(items).toHaveLength(50);

    let expiries: Date[] = [];
    const prolongCalls = await scriptCalls(async () => {
      expiries = (await Promise.all(items.map((item) => client.prolongRequestLock(item.id, { lockSecs: 60 })))).map((r) => r.lockExpiresAt);
    });
    expect(prolongCalls).toBe(1);
    expect(new Set(expiries.map((d) => d.getTime())).size).toBeLessThanOrEqual(2); // one Redis TIME for the batch

    const handledAt = new Date().toISOString();
    let results: Array<{ requestId: string; wasAlreadyHandled: boolean }> = [];
    const updateCalls = await scriptCalls(async () => {
      results = await Promise.all(items.map((item) => client.updateRequest({ ...req(item.url.slice(20)), id: item.id, handledAt })));
    });
    expect(updateCalls).toBe(1);
    expect(results.map((r) => r.requestId)).toEqual(items.map((item) => item.id));
    expect(results.every((r) => r.wasAlreadyHandled === false)).toBe(true);
    const info = await client.get();
    expect(info).toMatchObject({ totalRequestCount: 50, handledRequestCount: 50, pendingRequestCount: 0 });
  });

  it('a failure in a batch reaches only its own caller; the others succeed', async () => {
    const { client } = await open('batch-b', 'a');
    const other = (await open('batch-b', 'b')).client;
    await client.batchAddRequests([req(1), req(2), req(3), req(4)]);
    const mine = (await client.listAndLockHead({ limit: 2, lockSecs: 60 })).items;
    const theirs = (await other.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
    await client.updateRequest({ ...req(2), id: mine[1]!.id, handledAt: new Date().toISOString() });

    const settled = await Promise.allSettled([
      client.prolongRequestLock(mine[0]!.id, { lockSecs: 60 }),
      client.prolongRequestLock(mine[1]!.id, { lockSecs: 60 }),
      client.prolongRequestLock(theirs[0]!.id, { lockSecs: 60 }),
      client.prolongRequestLock('nonexistent1234', { lockSecs: 60 }),
    ]);
    expect(settled[0]).toMatchObject({ status: 'fulfilled' });
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: expect.any(RequestAlreadyHandledError) });
    expect(settled[2]).toMatchObject({ status: 'rejected', reason: expect.any(LockLostError) });
    expect(settled[3]).toMatchObject({ status: 'rejected', reason: expect.any(RequestNotFoundError) });
  });

  it('updates of the same request in one turn apply in call order, each as if alone', async () => {
    // 'request' mode keeps the handled request, so the final state can be read back.
    const { client } = await open('batch-c', 'a', { handledRequests: 'request' });
    await client.addRequest(req(1));
    const [item] = (await client.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
    const handledAt = new Date().toISOString();
    const [reclaim, handled, again] = await Promise.all([
      client.updateRequest({ ...req(1), id: item!.id, retryCount: 1 }),
      client.updateRequest({ ...req(1), id: item!.id, retryCount: 1, handledAt }),
      client.updateRequest({ ...req(1), id: item!.id, retryCount: 1, handledAt }),
    ]);
    expect(reclaim).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: false });
    expect(handled).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: false });
    expect(again).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: true });
    expect(await client.get()).toMatchObject({ handledRequestCount: 1, pendingRequestCount: 0 });
    expect(await client.getRequest(item!.id)).toMatchObject({ retryCount: 1, handledAt });
  });

  it('call order holds across kinds of calls made in one turn (batches go out before a later call that needs them)', async () => {
    const { client } = await open('batch-e', 'a');
    await client.batchAddRequests([req(0), req(1), req(2), req(3)]);
    const [x, y, z, w] = (await client.listAndLockHead({ limit: 4, lockSecs: 60 })).items.map((item) => item.id);
    const handledAt = new Date().toISOString();
    // prolong(x); handled(y); prolong(y): y is handled by the time its prolong runs.
    const order = await Promise.allSettled([
      client.prolongRequestLock(x!, { lockSecs: 60 }),
      client.updateRequest({ ...req(1), id: y!, handledAt }),
      client.prolongRequestLock(y!, { lockSecs: 60 }),
    ]);
    expect(order.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(order[2]).toMatchObject({ reason: expect.any(RequestAlreadyHandledError) });
    // reclaim(z); listAndLockHead: the lock call sees z back in the queue.
    const [, head] = await Promise.all([client.updateRequest({ ...req(2), id: z! }), client.listAndLockHead({ limit: 4, lockSecs: 60 })]);
    expect(head.items.map((item) => item.id)).toEqual([z]);
    // prolong(w); deleteRequestLock(w): the prolong still finds the lock it is prolonging.
    const [prolonged] = await Promise.allSettled([client.prolongRequestLock(w!, { lockSecs: 60 }), client.deleteRequestLock(w!)]);
    expect(prolonged.status).toBe('fulfilled');
    expect(await client.get()).toMatchObject({ totalRequestCount: 4, handledRequestCount: 1, pendingRequestCount: 3 });
  });

  it('fastProlong with maxStalls 0: the prolong Crawlee makes right after the lock sends no script at all', async () => {
    const { client } = await open('batch-d', 'a', { fastProlong: true, maxStalls: 0 });
    await client.batchAddRequests(Array.from({ length: 10 }, (_, i) => req(i)));
    const { items } = await client.listAndLockHead({ limit: 10, lockSecs: 60 });
    const calls = await scriptCalls(async () => {
      await Promise.all(items.map((item) => client.prolongRequestLock(item.id, { lockSecs: 60 })));
    });
    expect(calls).toBe(0);
  });

  it('fastProlong with maxStalls (default): those prolongs mark the start in one batched script, same expiry', async () => {
    const { client } = await open('batch-e', 'a', { fastProlong: true });
    await client.batchAddRequests(Array.from({ length: 10 }, (_, i) => req(i)));
    const { items } = await client.listAndLockHead({ limit: 10, lockSecs: 60 });
    let expiries: Date[] = [];
    const calls = await scriptCalls(async () => {
      expiries = (await Promise.all(items.map((item) => client.prolongRequestLock(item.id, { lockSecs: 60 })))).map((r) => r.lockExpiresAt);
    });
    expect(calls).toBe(1);
    // The lock was taken for twice the lock time; the prolong keeps that expiry (it does not add a third).
    const spread = Math.max(...expiries.map(Number)) - Math.min(...expiries.map(Number));
    expect(spread).toBeLessThan(1000);
  });
});

it('script command names carry the package version (a new release never runs an old script body)', () => {
  expect(commandName('prolongRequestLock')).toMatch(/^rqProlongRequestLock_\d+_\d+_\d+/);
});

/**
 * Parity: one sequence of RequestQueueClient calls (adds, forefront adds, listHead, handled marks, reclaims,
 * inserts through updateRequest, getRequest, get(), deleteRequest) runs against Crawlee's MemoryStorage client and
 * against the Redis client, and every result is compared. RequestQueueV1 (`requestLocking: false`) drives a client
 * through exactly these calls. The differences the README names (Known limits) are pinned below, on both clients.
 */
import { randomUUID } from 'node:crypto';
import { MemoryStorage } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { QueueHead, RequestQueueClient } from '../../src/core/crawlee-types.js';
import { requestIdOf } from '../../src/core/request-codec.js';
import type { RedisStorageClientOptions } from '../../src/storage/redis-storage-client.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld | undefined;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  vi.useRealTimers();
  await world?.cleanup();
  world = undefined;
});

const HANDLED_AT = '2026-01-01T00:00:00.000Z';
const id = (n: number | string) => requestIdOf(`https://example.com/${n}`);
const handled = (n: number | string, extra: Record<string, unknown> = {}) => ({ ...req(n), id: id(n), handledAt: HANDLED_AT, ...extra });
const pending = (n: number | string, extra: Record<string, unknown> = {}) => ({ ...req(n), id: id(n), ...extra });

/** MemoryStorage orders by Date.now() (ms): a frozen clock makes its order the order of the calls, as the queue's. */
async function memoryClient(): Promise<RequestQueueClient> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  const storage = new MemoryStorage({ persistStorage: false, writeMetadata: false });
  const info = await storage.requestQueues().getOrCreate(`parity-${randomUUID()}`);
  return storage.requestQueue(info.id, { clientKey: 'a' });
}

async function redisClient(options: Partial<RedisStorageClientOptions>): Promise<RequestQueueClient> {
  world = createWorld(backend, 'parity', options);
  return world.client('a');
}

const opInfo = (r: { requestId: string; wasAlreadyPresent: boolean; wasAlreadyHandled: boolean }) => ({
  requestId: r.requestId,
  wasAlreadyPresent: r.wasAlreadyPresent,
  wasAlreadyHandled: r.wasAlreadyHandled,
});
const head = (r: QueueHead) => ({
  limit: r.limit,
  hadMultipleClients: r.hadMultipleClients ?? false,
  items: r.items.map((i) => ({ id: i.id, uniqueKey: i.uniqueKey, url: i.url, method: i.method, retryCount: i.retryCount ?? 0 })),
});
const counts = (r: Record<string, unknown> | undefined) => ({
  name: r?.name,
  totalRequestCount: r?.totalRequestCount,
  handledRequestCount: r?.handledRequestCount,
  pendingRequestCount: r?.pendingRequestCount,
});

/** The stored request as Crawlee's `new Request()` reads it: the queue's record format omits fields at Crawlee's
 * defaults and getRequest returns them filled in; MemoryStorage returns the JSON as it was given. */
const stored = (r: Record<string, unknown> | undefined) => r && { errorMessages: [], headers: {}, noRetry: false, retryCount: 0, ...r };

/**
 * The sequence, as a transcript of [call, result]. `getRequest` of a handled request is left out: what it returns
 * depends on the queue's handledRequests mode (pinned below).
 */
async function transcript(c: RequestQueueClient, name: string): Promise<Array<[string, unknown]>> {
  const out: Array<[string, unknown]> = [];
  const step = async <T>(label: string, run: () => Promise<T>, shape: (r: T) => unknown = (r) => r) => {
    try {
      out.push([label, shape(await run())]);
    } catch {
      out.push([label, 'throws']);
    }
  };
  const listHead = (label: string, limit?: number) => step(`listHead ${label}`, () => c.listHead(limit === undefined ? {} : { limit }), head);
  const get = (label: string) => step(`get ${label}`, () => c.get(), (r) => counts({ ...r, name: r?.name === name ? 'same' : r?.name }));

  await step('add 1', () => c.addRequest(req(1)), opInfo);
  await step('add 2', () => c.addRequest(req(2, { userData: { depth: 1 } })), opInfo);
  await step('add 1 again', () => c.addRequest(req(1)), opInfo);
  await step('batch 3 4 1 5 3', () => c.batchAddRequests([req(3), req(4), req(1), req(5), req(3)]), (r) => ({
    processed: r.processedRequests.map((p) => ({ ...opInfo(p), uniqueKey: p.uniqueKey })),
    unprocessed: r.unprocessedRequests,
  }));
  await step('add f1 forefront', () => c.addRequest(req('f1'), { forefront: true }), opInfo);
  await step('batch f2 f3 forefront', () => c.batchAddRequests([req('f2'), req('f3')], { forefront: true }), (r) => r.processedRequests.map(opInfo));
  await listHead('limit 3', 3);
  await listHead('default limit');
  await get('after adds');
  await step('getRequest 2', () => c.getRequest(id(2)), stored);
  await step('getRequest unknown', () => c.getRequest('AAAAAAAAAAAAAAA'));

  await step('handle 2', () => c.updateRequest(handled(2)), opInfo);
  await step('handle 2 again', () => c.updateRequest(handled(2)), opInfo);
  await listHead('after handling 2');
  await get('after handling 2');
  await step('reclaim 4 forefront, retryCount 1', () => c.updateRequest(pending(4, { retryCount: 1 }), { forefront: true }), opInfo);
  await listHead('after forefront reclaim');
  await step('getRequest 4', () => c.getRequest(id(4)), stored);
  await step('reclaim 3 with new userData', () => c.updateRequest(pending(3, { userData: { note: 'x' } })), opInfo);
  await listHead('after plain reclaim', 4);
  await step('getRequest 3', () => c.getRequest(id(3)), stored);
  await step('updateRequest of unknown 6 (inserted)', () => c.updateRequest(pending(6)), opInfo);
  await step('updateRequest of unknown 7, handled (inserted handled)', () => c.updateRequest(handled(7)), opInfo);
  await step('updateRequest with an id that is not its uniqueKey', () => c.updateRequest({ ...req(8), id: id(9) }), opInfo);
  await step('add 2 (handled)', () => c.addRequest(req(2)), opInfo);
  await step('add 9 already handled', () => c.addRequest(req(9, { handledAt: HANDLED_AT })), opInfo);
  await listHead('after inserts');
  await get('after inserts');

  await step('delete 1 (pending)', async () => void (await c.deleteRequest(id(1))));
  await step('delete 7 (handled)', async () => void (await c.deleteRequest(id(7))));
  await step('delete unknown', async () => void (await c.deleteRequest('AAAAAAAAAAAAAAA')));
  await step('getRequest 1 (deleted)', () => c.getRequest(id(1)));
  await step('add 1 after delete', () => c.addRequest(req(1)), opInfo);
  await listHead('after deletes');
  await get('after deletes');
  // Handled without a lock, in queue order, as RequestQueueV1 does: what is left is still listed, in order.
  for (const n of ['f3', 'f2', 4, 3, 5]) await step(`handle ${n}`, () => c.updateRequest(handled(n)), opInfo);
  await listHead('after handling the head', 2);
  await listHead('all after handling the head');
  await get('at the end');
  return out;
}

describe('client parity with MemoryStorage (one call sequence, every result compared)', () => {
  it.each([
    ["handledRequests 'request'", { handledRequests: 'request' }],
    ["handledRequests 'key' (default)", {}],
    ['shards: 12', { shards: 12 }],
  ] as Array<[string, Partial<RedisStorageClientOptions>]>)('Redis client, %s', async (_label, options) => {
    const memory = await memoryClient();
    const expected = await transcript(memory, (await memory.get())!.name!);
    vi.useRealTimers();
    const redis = await redisClient(options);
    const actual = await transcript(redis, 'parity');
    expect(actual).toEqual(expected);
    // The sequence exercised what it says: forefront first, the moved request at its new place, the rest in order.
    expect(names((await redis.listHead({})).items)).toEqual(['f1', '6', '1']);
  });
});

describe('documented differences from MemoryStorage (README, Known limits)', () => {
  it("getRequest of a handled request: MemoryStorage returns it; the 'key' and 'bits' modes keep no request", async () => {
    for (const open of [memoryClient, () => redisClient({ handledRequests: 'request' })]) {
      const c = await open();
      await c.addRequest(req(1));
      await c.updateRequest(handled(1));
      expect(await c.getRequest(id(1))).toMatchObject({ id: id(1), handledAt: HANDLED_AT });
      vi.useRealTimers();
      await world?.cleanup();
      world = undefined;
    }
    const c = await redisClient({});
    await c.addRequest(req(1));
    await c.updateRequest(handled(1));
    expect(await c.getRequest(id(1))).toBeUndefined();
  });

  it('listHead and locked requests: MemoryStorage lists them by lock expiry (a forefront one first), the queue at their place', async () => {
    const lockTwo = async (c: RequestQueueClient) => {
      await c.batchAddRequests([req(1), req(2), req(3)]);
      await c.addRequest(req('f'), { forefront: true });
      await c.listAndLockHead({ limit: 2, lockSecs: 60 }); // f and 1
      return names((await c.listHead({})).items);
    };
    expect(await lockTwo(await memoryClient())).toEqual(['f', '2', '3', '1']);
    vi.useRealTimers();
    expect(await lockTwo(await redisClient({}))).toEqual(['f', '1', '2', '3']);
  });

  it('listHead lists at most `limit` locked requests, the soonest-expiring (a bound: no read of every lock)', async () => {
    const c = await redisClient({});
    await c.batchAddRequests([req(1), req(2), req(3), req(4)]);
    await c.listAndLockHead({ limit: 1, lockSecs: 120 }); // 1, expiring last
    await c.listAndLockHead({ limit: 1, lockSecs: 30 }); // 2
    await c.listAndLockHead({ limit: 1, lockSecs: 60 }); // 3
    expect(names((await c.listHead({ limit: 2 })).items)).toEqual(['2', '3']);
    expect(names((await c.listHead({ limit: 3 })).items)).toEqual(['1', '2', '3']);
  });

  it('a plain reclaim: MemoryStorage stamps the request anew, so listHead lists it after the others; the queue keeps its place', async () => {
    const reclaimFirst = async (c: RequestQueueClient, advance: () => void) => {
      for (const n of [1, 2, 3]) {
        await c.addRequest(req(n));
        advance();
      }
      await c.updateRequest(pending(1, { retryCount: 1 }));
      return names((await c.listHead({})).items);
    };
    expect(await reclaimFirst(await memoryClient(), () => vi.setSystemTime(new Date(Date.now() + 10)))).toEqual(['2', '3', '1']);
    vi.useRealTimers();
    expect(await reclaimFirst(await redisClient({}), () => undefined)).toEqual(['1', '2', '3']);
  });
});

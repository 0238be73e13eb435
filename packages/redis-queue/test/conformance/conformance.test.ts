/**
 * Conformance: the same scenarios against Crawlee's MemoryStorage (the reference) and the Redis client, with the
 * same expected values. Written from the reference's observable behaviour (client level, as RequestQueueV2 drives it).
 */
import { randomUUID } from 'node:crypto';
import { MemoryStorage } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { RequestQueueClient } from '../../src/core/crawlee-types.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req } from '../helpers/world.js';

interface Target {
  client: RequestQueueClient;
  /** Moves the queue's clock forward. */
  advance(ms: number): void;
  cleanup(): Promise<void>;
}

let backend: TestBackend;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});

const targets: Array<[string, () => Promise<Target>]> = [
  [
    'MemoryStorage (reference)',
    async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
      const storage = new MemoryStorage({ persistStorage: false, writeMetadata: false });
      const info = await storage.requestQueues().getOrCreate(`conformance-${randomUUID()}`);
      const client = storage.requestQueue(info.id, { clientKey: 'a' });
      return {
        client,
        advance: (ms) => vi.setSystemTime(new Date(Date.now() + ms)),
        cleanup: async () => {
          vi.useRealTimers();
          await client.delete();
        },
      };
    },
  ],
  // The Redis client in each handledRequests mode: Crawlee's observable behaviour is the same in all three.
  ...(['key', 'request', 'bits'] as const).map((handledRequests): [string, () => Promise<Target>] => [
    `RedisStorageClient, handledRequests '${handledRequests}'`,
    async () => {
      const world = createWorld(backend, 'queue', { handledRequests });
      const client = await world.client('a');
      return { client, advance: (ms) => world.advance(ms), cleanup: () => world.cleanup() };
    },
  ]),
  [
    // Every req() is on example.com, so with shardBy host the scenarios' requests share one of the 12 shards and each
    // call also goes through the sharded core's routing and the other, empty shards.
    'RedisStorageClient, shards: 12',
    async () => {
      const world = createWorld(backend, 'queue', { shards: 12 });
      const client = await world.client('a');
      return { client, advance: (ms) => world.advance(ms), cleanup: () => world.cleanup() };
    },
  ],
];

const handledAt = () => new Date().toISOString();
const lock = async (t: Target, limit = 25, lockSecs = 60) => names((await t.client.listAndLockHead({ limit, lockSecs })).items);
/** Crawlee's reclaim: updateRequest, then deleteRequestLock whose error is swallowed (MemoryStorage throws "not locked"). */
const reclaim = async (t: Target, n: number, forefront = false) => {
  const { requestId } = await t.client.updateRequest({ ...req(n), id: await idOf(t, n) }, { forefront });
  await t.client.deleteRequestLock(requestId, { forefront }).catch(() => undefined);
};
const idOf = async (t: Target, n: number | string) => (await t.client.addRequest(req(n))).requestId;

describe.each(targets)('conformance: %s', (_label, open) => {
  let t: Target;
  afterEach(async () => {
    await t?.cleanup();
  });

  it('forefront order: newest forefront first, then FIFO; batches too', async () => {
    t = await open();
    await t.client.addRequest(req('a'));
    await t.client.addRequest(req('b'));
    await t.client.addRequest(req('f1'), { forefront: true });
    await t.client.batchAddRequests([req('c'), req('d')]);
    await t.client.batchAddRequests([req('f2'), req('f3')], { forefront: true });
    expect(await lock(t)).toEqual(['f3', 'f2', 'f1', 'a', 'b', 'c', 'd']);
  });

  it('reclaim order: a plain reclaim keeps the original position, a forefront reclaim goes to the head', async () => {
    t = await open();
    await t.client.batchAddRequests([req(1), req(2), req(3), req(4)]);
    expect(await lock(t, 3)).toEqual(['1', '2', '3']);
    await reclaim(t, 1);
    await reclaim(t, 3, true);
    expect(await lock(t)).toEqual(['3', '1', '4']);
  });

  it('deleteRequestLock keeps the order; with forefront it moves the request to the head', async () => {
    t = await open();
    await t.client.batchAddRequests([req(1), req(2), req(3)]);
    await lock(t);
    await t.client.deleteRequestLock(await idOf(t, 2));
    await t.client.deleteRequestLock(await idOf(t, 3), { forefront: true });
    expect(await lock(t)).toEqual(['3', '2']);
  });

  it('handled counts: marking, re-marking, adding handled requests, deleting', async () => {
    t = await open();
    await t.client.batchAddRequests([req(1), req(2), req(3)]);
    expect(await t.client.get()).toMatchObject({ totalRequestCount: 3, pendingRequestCount: 3, handledRequestCount: 0 });
    await lock(t);
    expect(await t.client.updateRequest({ ...req(1), id: await idOf(t, 1), handledAt: handledAt() })).toMatchObject({ wasAlreadyHandled: false, wasAlreadyPresent: true });
    await t.client.updateRequest({ ...req(2), id: await idOf(t, 2), handledAt: handledAt() });
    expect(await t.client.get()).toMatchObject({ totalRequestCount: 3, pendingRequestCount: 1, handledRequestCount: 2 });
    expect(await t.client.updateRequest({ ...req(1), id: await idOf(t, 1), handledAt: handledAt() })).toMatchObject({ wasAlreadyHandled: true });
    expect(await t.client.get()).toMatchObject({ pendingRequestCount: 1, handledRequestCount: 2 });
    expect(await t.client.addRequest(req(4, { handledAt: handledAt() }))).toMatchObject({ wasAlreadyPresent: false, wasAlreadyHandled: false });
    expect(await t.client.addRequest(req(1))).toMatchObject({ wasAlreadyPresent: true, wasAlreadyHandled: true });
    expect(await t.client.get()).toMatchObject({ totalRequestCount: 4, pendingRequestCount: 1, handledRequestCount: 3 });
    await t.client.deleteRequest(await idOf(t, 3));
    expect(await t.client.get()).toMatchObject({ totalRequestCount: 3, pendingRequestCount: 0, handledRequestCount: 3 });
  });

  it('lock expiry with a controllable clock: expired locks come back in their original order', async () => {
    t = await open();
    await t.client.batchAddRequests([req(1), req(2), req(3)]);
    expect(await lock(t, 1)).toEqual(['1']);
    expect(await lock(t, 1)).toEqual(['2']);
    expect(await lock(t, 25, 120)).toEqual(['3']);
    expect(await lock(t)).toEqual([]);
    t.advance(61_000);
    expect(await lock(t)).toEqual(['1', '2']);
  });

  it('prolongRequestLock extends from the current expiry: locked at +65 s, free at +130 s', async () => {
    t = await open();
    await t.client.addRequest(req('x'));
    expect(await lock(t)).toEqual(['x']);
    const id = await idOf(t, 'x');
    await t.client.prolongRequestLock(id, { lockSecs: 60 });
    t.advance(65_000);
    expect(await lock(t)).toEqual([]);
    t.advance(65_000);
    expect(await lock(t)).toEqual(['x']);
  });

  it('prolongRequestLock with forefront puts the request at the head once its lock ends', async () => {
    t = await open();
    await t.client.batchAddRequests([req(1), req(2), req(3)]);
    await lock(t);
    await t.client.prolongRequestLock(await idOf(t, 2), { lockSecs: 60, forefront: true });
    t.advance(200_000);
    expect(await lock(t)).toEqual(['2', '1', '3']);
  });

  it('batch add results: wasAlreadyPresent and wasAlreadyHandled, duplicates inside one batch', async () => {
    t = await open();
    const first = await t.client.batchAddRequests([req('A'), req('B'), req('A')]);
    expect(first.processedRequests.map((p) => [p.uniqueKey.slice(20), p.wasAlreadyPresent, p.wasAlreadyHandled])).toEqual([
      ['A', false, false],
      ['B', false, false],
      ['A', true, false],
    ]);
    expect(first.unprocessedRequests).toEqual([]);
    await lock(t);
    await t.client.updateRequest({ ...req('A'), id: await idOf(t, 'A'), handledAt: handledAt() });
    const second = await t.client.batchAddRequests([req('A'), req('C'), req('B')]);
    expect(second.processedRequests.map((p) => [p.uniqueKey.slice(20), p.wasAlreadyPresent, p.wasAlreadyHandled])).toEqual([
      ['A', true, true],
      ['C', false, false],
      ['B', true, false],
    ]);
    expect(second.processedRequests.every((p) => typeof p.requestId === 'string' && p.requestId.length === 15)).toBe(true);
  });

  it('getRequest returns the stored request with its id; unknown ids read as undefined', async () => {
    t = await open();
    const { requestId } = await t.client.addRequest(req(7, { userData: { depth: 2 } }));
    const stored = await t.client.getRequest(requestId);
    expect(stored).toMatchObject({ id: requestId, url: 'https://example.com/7', uniqueKey: 'https://example.com/7', userData: { depth: 2 } });
    expect(await t.client.getRequest('AAAAAAAAAAAAAAA')).toBeUndefined();
  });
});

// A queue written by the real 0.1 code (built from git commit fe2f464 by bench/scale/anchor.mjs into
// bench/scale/.tmp/) is read back by this code: opening it migrates it to format 2 (migrate-legacy.lua), with
// pending, locked, forefront and handled requests, counters and order kept, also when the migrator is killed
// between two batches and several workers open the queue at once.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildAnchor } from '../../bench/scale/anchor.mjs';
import { migrateLegacyQueue } from '../../src/queue/migrate-legacy.js';
import { QueueScripts } from '../../src/queue/queue-scripts.js';
import { requestIdOf } from '../../src/queue/request-codec.js';
import { ConnectionHandle } from '../../src/redis/connection.js';
import { queueKeys } from '../../src/redis/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req, type QueueWorld } from '../helpers/world.js';

interface LegacyClient {
  batchAddRequests(requests: unknown[], options?: { forefront?: boolean }): Promise<unknown>;
  listAndLockHead(options: { limit: number; lockSecs: number }): Promise<{ items: Array<{ id: string; url: string }> }>;
  updateRequest(request: unknown): Promise<unknown>;
}
interface LegacyModule {
  RedisStorageClient: new (options: { redis: Redis; keyPrefix: string }) => {
    requestQueues(): { getOrCreate(name: string): Promise<unknown> };
    requestQueue(name: string, options: { clientKey: string }): LegacyClient;
  };
}

let backend: TestBackend;
let world: QueueWorld;
let legacy: LegacyModule;
const redis: Redis[] = [];
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
  legacy = (await import(buildAnchor())) as LegacyModule;
}, 180_000);
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world?.cleanup();
  await Promise.all(redis.splice(0).map((r) => r.quit()));
});

const id = (n: number | string) => requestIdOf(`https://example.com/${n}`);
const done = () => new Date().toISOString();

/** Writes a queue with the 0.1 code: FIFO 1..6, forefront f1 then f2, a handled h; an old worker locked f2, f1, 1, 2
 * (for 60 s) and marked 1 handled. */
async function writeLegacyQueue(): Promise<void> {
  const connection = new Redis(inject('redisUrl'));
  redis.push(connection);
  const storage = new legacy.RedisStorageClient({ redis: connection, keyPrefix: world.keyPrefix });
  await storage.requestQueues().getOrCreate(world.name);
  const old = storage.requestQueue(world.name, { clientKey: 'old-worker' });
  await old.batchAddRequests([1, 2, 3, 4, 5, 6].map((n) => req(n)));
  await old.batchAddRequests([req('f1')], { forefront: true });
  await old.batchAddRequests([req('f2')], { forefront: true });
  await old.batchAddRequests([req('h', { handledAt: done() })]);
  expect(names((await old.listAndLockHead({ limit: 4, lockSecs: 60 })).items)).toEqual(['f2', 'f1', '1', '2']);
  await old.updateRequest({ ...req(1), id: id(1), handledAt: done() });
  const keys = queueKeys(world.keyPrefix, world.name);
  expect(await world.redis.hget(keys.meta, 'format')).toBeNull();
  expect(await world.redis.zcard(keys.legacyPending)).toBe(7);
}

/** What the migrated queue must hold, read through this code. */
async function expectMigrated(): Promise<void> {
  const keys = queueKeys(world.keyPrefix, world.name);
  expect(await world.redis.hget(keys.meta, 'format')).toBe('2');
  expect(await world.redis.exists(keys.legacyPending, keys.legacyAvail, keys.migrationLock)).toBe(0);
  expect(await world.redis.hlen(keys.data)).toBe(7);
  expect(await world.redis.hlen(keys.done)).toBe(2);
  const c = await world.client('new-worker');
  expect(await c.get()).toMatchObject({ totalRequestCount: 9, handledRequestCount: 2, pendingRequestCount: 7 });
  // Handled requests stay handled (dedup) and readable; pending ones present.
  expect(await c.batchAddRequests([req(1), req('h'), req(3)])).toMatchObject({
    processedRequests: [
      { uniqueKey: req(1).uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled: true },
      { uniqueKey: req('h').uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled: true },
      { uniqueKey: req(3).uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled: false },
    ],
  });
  expect(await c.getRequest(id(1))).toMatchObject({ url: req(1).url, handledAt: expect.any(String) });
  // The old worker's locks still hold: the available ones come in 0.1's order.
  expect(names((await c.listAndLockHead({ limit: 10, lockSecs: 600 })).items)).toEqual(['3', '4', '5', '6']);
  // New requests after the old ones: forefront before every old forefront request, FIFO after every old FIFO one.
  await c.batchAddRequests([req(7)]);
  await c.batchAddRequests([req('n1')], { forefront: true });
  // The old worker died: its locks expire and its requests return at their original places.
  world.advance(61_000);
  expect(names((await c.listAndLockHead({ limit: 10, lockSecs: 600 })).items)).toEqual(['n1', 'f2', 'f1', '2', '7']);
  const f2 = await c.getRequest(id('f2'));
  expect(f2).toMatchObject({ url: req('f2').url, uniqueKey: req('f2').uniqueKey });
  await c.updateRequest({ ...req('f2'), id: id('f2'), handledAt: done() });
  expect(await c.get()).toMatchObject({ totalRequestCount: 11, handledRequestCount: 3, pendingRequestCount: 8 });
}

describe('a queue written by 0.1', () => {
  it('is migrated when a worker opens it: pending, locked, forefront and handled requests, counters, order', async () => {
    world = createWorld(backend, 'legacy', { handledRequests: 'request' });
    await writeLegacyQueue();
    await world.storageClient().requestQueues().getOrCreate(world.name);
    await expectMigrated();
  });

  it('a client used without getOrCreate migrates before its first lock, so nothing is stranded in 0.1 structures', async () => {
    world = createWorld(backend, 'legacy-direct', { handledRequests: 'request' });
    await writeLegacyQueue();
    const direct = world.storageClient().requestQueue(world.name, { clientKey: 'direct' });
    expect(names((await direct.listAndLockHead({ limit: 10, lockSecs: 600 })).items)).toEqual(['3', '4', '5', '6']);
    expect(await world.redis.hget(queueKeys(world.keyPrefix, world.name).meta, 'format')).toBe('2');
  });

  it('a migrator killed between two batches leaves a queue that the next openers finish, exactly once', async () => {
    world = createWorld(backend, 'legacy-killed', { handledRequests: 'request' });
    await writeLegacyQueue();
    const keys = queueKeys(world.keyPrefix, world.name);
    const scripts = new QueueScripts(new ConnectionHandle(world.redis), keys, world.name);
    // The migrator opened the queue as every opener does (create-queue.lua records its handled mode first).
    await scripts.run('createQueue', [world.name, world.name, '0', '', 'request', '48', '', '', '', '']);
    // Two batches of two (the handled walk, then two pending requests), then the migrator "dies" holding the lock.
    expect(await migrateLegacyQueue(scripts, { batch: 2, maxBatches: 2, lockMs: 1500 })).toBe(false);
    expect(await world.redis.exists(keys.migrationLock)).toBe(1);
    expect(await world.redis.hget(keys.meta, 'format')).toBeNull();
    // Three workers open at once: one takes over once the dead migrator's lock expires, the others wait for it.
    const openers = Array.from({ length: 3 }, () => world.storageClient().requestQueues().getOrCreate(world.name));
    await Promise.all(openers);
    await expectMigrated();
  }, 30_000);
});

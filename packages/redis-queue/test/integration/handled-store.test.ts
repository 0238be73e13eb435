// The handled store of each handledRequests mode, beyond the contract suite (which runs in all three modes): what
// each mode keeps, the mode fixed at creation, the 'key' index's linear-hashing splits, 'bits' never giving a false
// negative, a queue written before handled requests left data, failed requests in modes that keep no request, and
// the queue's memory in get() / admin.storage().
import { createHash } from 'node:crypto';
import { log } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { HandledModeMismatchError } from '../../src/errors/handled-mode-mismatch-error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { handledBloomShape, HANDLED_INDEX_LOAD, type HandledRequestsMode } from '../../src/queue/handled-store.js';
import { queueKeys } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { handledStoreCount } from '../helpers/handled-store.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
const worlds: QueueWorld[] = [];
/** A new world, cleaned up after the test. @param name - queue name */
const open = (name = 'queue') => {
  world = createWorld(backend, name);
  worlds.push(world);
  return world;
};
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend?.stop();
});
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.cleanup()));
});

const idOf = (uniqueKey: string) => createHash('sha256').update(uniqueKey).digest('base64').replace(/[+/=]/g, '').slice(0, 15);
const handled = (n: number | string) => req(n, { handledAt: new Date().toISOString() });

/** Adds `count` requests, locks and marks every one handled through the client, as Crawlee does. */
async function crawl(w: QueueWorld, mode: HandledRequestsMode, count: number, extra: Partial<ConstructorParameters<typeof RedisStorageClient>[0]> = {}) {
  const c = await w.client('a', { handledRequests: mode, ...extra });
  for (let start = 0; start < count; start += 500) {
    await c.batchAddRequests(Array.from({ length: Math.min(500, count - start) }, (_, i) => req(start + i)));
  }
  for (;;) {
    const { items } = await c.listAndLockHead({ limit: 200, lockSecs: 60 });
    if (items.length === 0) break;
    await Promise.all(items.map((item) => c.updateRequest({ ...req(item.url.slice(20)), id: item.id, handledAt: new Date().toISOString() })));
  }
  return c;
}

describe('handledRequests', () => {
  it("'request' keeps the request with handledAt (getRequest returns it); 'key' and 'bits' keep none (undefined)", async () => {
    for (const mode of ['request', 'key', 'bits'] as const) {
      open(`q-${mode}`);
      const c = await crawl(world, mode, 3);
      const got = await c.getRequest(idOf('https://example.com/1'));
      if (mode === 'request') expect(got).toMatchObject({ url: 'https://example.com/1', handledAt: expect.any(String) });
      else expect(got).toBeUndefined();
      const keys = queueKeys(world.keyPrefix, world.name);
      expect(await world.redis.hlen(keys.data)).toBe(0);
      expect((await c.addRequest(req(1))).wasAlreadyHandled).toBe(true);
      expect(await c.get()).toMatchObject({ totalRequestCount: 3, handledRequestCount: 3, pendingRequestCount: 0 });
    }
  });

  it('the mode is fixed at creation: another mode or other Bloom sizing throws HandledModeMismatchError and writes nothing', async () => {
    open();
    const c = await world.client('a', { handledRequests: 'bits', handledBloom: { expectedRequests: 1000 } });
    await c.addRequest(handled(1));
    const keys = queueKeys(world.keyPrefix, world.name);
    const before = await world.redis.hgetall(keys.meta);
    for (const options of [{ handledRequests: 'key' as const }, { handledRequests: 'bits' as const, handledBloom: { expectedRequests: 2000 } }, {}]) {
      const error = await world.client('b', options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HandledModeMismatchError);
      expect((error as Error).message).toMatch(/created with handledRequests bits:\d+:\d+:1.*drop/);
    }
    expect(await world.redis.hgetall(keys.meta)).toEqual(before);
    // The same mode and sizing opens.
    await world.client('c', { handledRequests: 'bits', handledBloom: { expectedRequests: 1000 } });
  });

  it('bad options are InvalidOptionsErrors before anything connects', () => {
    expect(() => new RedisStorageClient({ handledRequests: 'set' as never })).toThrow(InvalidOptionsError);
    expect(() => new RedisStorageClient({ handledBloom: { expectedRequests: 10 } })).toThrow(/set handledRequests: 'bits'/);
    expect(() => new RedisStorageClient({ handledRequests: 'bits', handledBloom: { expectedRequests: 0 } })).toThrow(InvalidOptionsError);
    // A filter larger than one queue allocates (it is allocated at creation, in one script) is refused up front.
    expect(() => new RedisStorageClient({ handledRequests: 'bits', handledBloom: { expectedRequests: 10_000_000_000 } })).toThrow(/GiB filter, allocated in Redis at once/);
    expect(() => new RedisStorageClient({ handledRequests: 'bits', handledBloom: { expectedRequests: 700_000_000 } })).not.toThrow();
    expect(() => new RedisStorageClient({ handledRequests: 'bits', handledBloom: { falsePositiveRate: 0.5 } })).toThrow(InvalidOptionsError);
    expect(() => new RedisStorageClient({ handledRequests: 'bits', handledBloom: { expectedRequests: 1.5 } })).toThrow(InvalidOptionsError);
  });

  it("'key': the index splits one bucket at a time, every bucket stays a listpack, every id is found exactly", async () => {
    open();
    const count = 6000;
    const c = await crawl(world, 'key', count);
    const keys = queueKeys(world.keyPrefix, world.name);
    const [hxL, hxS, hxN] = (await world.redis.hmget(keys.meta, 'hxL', 'hxS', 'hxN')).map(Number);
    const buckets = 2 ** hxL! + hxS!;
    expect(hxN).toBe(count);
    // Linear hashing: the bucket count follows the load (no more than one split per insert, none missing).
    expect(buckets).toBe(Math.floor(count / HANDLED_INDEX_LOAD));
    expect(await handledStoreCount(world.redis, keys, 'key')).toBe(count);
    for (let b = 0; b < buckets; b++) expect(await world.redis.object('ENCODING', `${keys.ixPrefix}${b}`)).toBe('listpack');
    const again = await c.batchAddRequests(Array.from({ length: count }, (_, i) => req(i)));
    expect(again.processedRequests.every((p) => p.wasAlreadyHandled)).toBe(true);
    const fresh = await c.batchAddRequests(Array.from({ length: 500 }, (_, i) => req(`new-${i}`)));
    expect(fresh.processedRequests.some((p) => p.wasAlreadyPresent)).toBe(false);
    // Delete after splits finds the entry in its current bucket.
    await c.deleteRequest(idOf('https://example.com/4321'));
    expect((await c.addRequest(req(4321))).wasAlreadyPresent).toBe(false);
  });

  it("'bits': never a false negative, the filter is allocated at creation from the sizing, the estimated rate is reported", async () => {
    open();
    const count = 5000;
    const c = await crawl(world, 'bits', count, { handledBloom: { expectedRequests: 10_000, falsePositiveRate: 1e-4 } });
    const keys = queueKeys(world.keyPrefix, world.name);
    const shape = handledBloomShape(10_000, 1e-4);
    expect(await world.redis.strlen(`${keys.hbPrefix}0`)).toBe(shape.blockBits / 8);
    const again = await c.batchAddRequests(Array.from({ length: count }, (_, i) => req(i)));
    expect(again.processedRequests.filter((p) => !p.wasAlreadyHandled)).toEqual([]);
    const storage = await world.admin().storage();
    expect(storage).toMatchObject({ handledRequests: 'bits', handledBloom: { expectedRequests: 10_000, falsePositiveRate: 1e-4, hashes: shape.hashes, blocks: 1 } });
    // Half the expected count in: (1 - e^(-k n / m))^k, far below the target.
    expect(storage.handledFalsePositiveRate).toBeGreaterThan(0);
    expect(storage.handledFalsePositiveRate).toBeLessThan(1e-4);
  });

  it("'bits' warns once when the queue holds more handled requests than its filter was sized for", async () => {
    open();
    const c = await crawl(world, 'bits', 30, { handledBloom: { expectedRequests: 20 } });
    const warning = vi.spyOn(log, 'warning').mockImplementation(() => undefined);
    await c.get();
    await c.get();
    const warned = warning.mock.calls.filter(([line]) => String(line).includes('expectedRequests'));
    warning.mockRestore();
    expect(warned).toHaveLength(1);
    expect(String(warned[0]![0])).toMatch(/holds 30 handled requests, more than its handledBloom.expectedRequests \(20\)/);
  });

  it("failed requests in 'key' and 'bits' keep their JSON for failed() and requeueFailed()", async () => {
    for (const mode of ['key', 'bits'] as const) {
      open(`f-${mode}`);
      const c = await world.client('a', { handledRequests: mode });
      await c.addRequest(req('bad'));
      const [item] = (await c.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
      // Crawlee's error handler marks a request that failed for good handled, with its errorMessages.
      await c.updateRequest({ ...req('bad', { userData: { __crawlee: { state: 6 } } }), id: item!.id, retryCount: 3, errorMessages: ['boom'], handledAt: new Date().toISOString() });
      const admin = world.admin();
      const [failed] = await admin.failed();
      expect(failed).toMatchObject({ id: item!.id, state: 'kept', url: 'https://example.com/bad', errorMessages: ['boom'] });
      expect(await admin.requeueFailed()).toMatchObject({ requeued: 1 });
      expect(await c.get()).toMatchObject({ handledRequestCount: 0, pendingRequestCount: 1, totalRequestCount: 1 });
      expect((await c.listAndLockHead({ limit: 1, lockSecs: 60 })).items.map((i) => i.id)).toEqual([item!.id]);
    }
  });

  it('purge empties the handled store of every mode and keeps the mode', async () => {
    for (const mode of ['request', 'key', 'bits'] as const) {
      open(`p-${mode}`);
      const c = await crawl(world, mode, 300, mode === 'bits' ? { handledBloom: { expectedRequests: 1000 } } : {});
      const admin = world.admin();
      expect(await admin.purge()).toBe(300);
      const keys = queueKeys(world.keyPrefix, world.name);
      expect(await handledStoreCount(world.redis, keys, mode)).toBe(0);
      expect((await c.addRequest(req(1))).wasAlreadyPresent).toBe(false);
      expect(await world.redis.hget(keys.meta, 'hmode')).toBe(mode);
    }
  });

  it("memoryBytes in get() and admin.storage(): the queue's keys, the 'key' index sampled and extrapolated", async () => {
    open();
    const c = await crawl(world, 'key', 3000);
    const keys = queueKeys(world.keyPrefix, world.name);
    const [hxL, hxS] = (await world.redis.hmget(keys.meta, 'hxL', 'hxS')).map(Number);
    let exact = 0;
    for (let b = 0; b < 2 ** hxL! + hxS!; b++) exact += Number(await world.redis.call('MEMORY', 'USAGE', `${keys.ixPrefix}${b}`, 'SAMPLES', '0'));
    const info = await c.get();
    const { byKey } = await world.admin().memoryUsage();
    // The sample of 16 buckets lands within 25 % of the sum over every bucket.
    expect(Math.abs(byKey['ix:*']! - exact) / exact).toBeLessThan(0.25);
    expect(info!.memoryBytes).toBeGreaterThan(exact * 0.75);
    expect((await world.admin().storage()).memoryBytes).toBeGreaterThan(0);
  });
});

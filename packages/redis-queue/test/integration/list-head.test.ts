// listHead: the first `limit` unhandled requests in queue order, whatever stale list entries (left by requests
// handled, moved or deleted while nobody held them) lie in the lists, and lazy cleanup of what it skipped.
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
import { queueKeys } from '../../src/core/keys.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
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
  await world?.cleanup();
  world = undefined;
});

const id = (n: number | string) => requestIdOf(`https://example.com/${n}`);
const handled = (n: number | string) => ({ ...req(n), id: id(n), handledAt: new Date().toISOString() });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Marks requests handled without a lock, as RequestQueueV1 does (one updateRequest each). */
const handle = (c: RedisRequestQueueClient, ns: number[]) => Promise.all(ns.map((n) => c.updateRequest(handled(n))));
const head = async (c: RedisRequestQueueClient, limit: number) => names((await c.listHead({ limit })).items);
const lockAll = async (c: RedisRequestQueueClient) => names((await c.listAndLockHead({ limit: 25, lockSecs: 60 })).items);

describe('listHead', () => {
  it('lists a request moved while nobody held it at its new place (forefront reclaim, re-add after delete)', async () => {
    world = createWorld(backend, 'moved');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3), req(4)]);
    await c.updateRequest({ ...req(3), id: id(3) }, { forefront: true });
    expect(await head(c, 10)).toEqual(['3', '1', '2', '4']);
    await c.deleteRequest(id(1));
    await c.batchAddRequests([req(5), req(1)]);
    expect(await head(c, 10)).toEqual(['3', '2', '4', '5', '1']);
    expect(await head(c, 2)).toEqual(['3', '2']);
    expect(await lockAll(c)).toEqual(['3', '2', '4', '5', '1']);
  });

  it('stale entries at the front do not hide live ones, however many; the ones it skipped are popped', async () => {
    world = createWorld(backend, 'front-stale');
    const c = await world.client('a');
    await c.batchAddRequests(range(1, 300).map((n) => req(n)));
    await handle(c, range(1, 250));
    expect(await head(c, 10)).toEqual(range(251, 260).map(String));
    expect(await head(c, 100)).toEqual(range(251, 300).map(String));
    const keys = queueKeys(world.keyPrefix, world.name);
    expect(await world.redis.llen(keys.fifo)).toBe(50);
    expect(await world.redis.exists(keys.stale)).toBe(0);
    expect(await world.redis.hget(keys.meta, 'qhead')).toBe('250');
    // The lock script and the counters agree with what was cut.
    await c.batchAddRequests([req('f')], { forefront: true });
    expect(await lockAll(c)).toEqual(['f', ...range(251, 274).map(String)]);
    expect(await c.get()).toMatchObject({ totalRequestCount: 301, handledRequestCount: 250, pendingRequestCount: 51 });
  });

  it('stale forefront entries are skipped and popped too', async () => {
    world = createWorld(backend, 'forefront-stale');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2)]);
    for (const n of range(1, 5)) await c.addRequest(req(`f${n}`), { forefront: true });
    await Promise.all(['f5', 'f4', 'f2'].map((n) => c.updateRequest(handled(n))));
    expect(await head(c, 3)).toEqual(['f3', 'f1', '1']);
    const keys = queueKeys(world.keyPrefix, world.name);
    expect(await world.redis.llen(keys.front)).toBe(3); // f3, f2 (stale, behind a live one), f1
    expect(await world.redis.hlen(keys.stale)).toBe(1);
  });

  it('stale entries behind a live head: listed past them; at `limit` or more the prefix is cut, live ones keep their order in back', async () => {
    world = createWorld(backend, 'mid-stale');
    const c = await world.client('a');
    await c.batchAddRequests(range(1, 500).map((n) => req(n)));
    const keys = queueKeys(world.keyPrefix, world.name);
    // A few stale entries behind the live head: skipped, left in place (fewer than limit).
    await handle(c, range(2, 5));
    expect(await head(c, 10)).toEqual(['1', ...range(6, 14).map(String)]);
    expect(await world.redis.llen(keys.fifo)).toBe(500);
    expect(await world.redis.hlen(keys.stale)).toBe(4);
    // Hundreds behind it (request 1 still in progress in V1): cut; request 1 keeps order 1 in back.
    await handle(c, range(6, 400).filter((n) => n !== 200));
    expect(await head(c, 10)).toEqual(['1', '200', ...range(401, 408).map(String)]);
    expect(await world.redis.llen(keys.fifo)).toBe(100);
    expect(await world.redis.exists(keys.stale)).toBe(0);
    expect(await world.redis.zrange(keys.back, '0', '-1', 'WITHSCORES')).toEqual([id(1), '1', id(200), '200']);
    expect(await head(c, 10)).toEqual(['1', '200', ...range(401, 408).map(String)]);
    // Exactly once, in order, through the lock script afterwards.
    expect(await lockAll(c)).toEqual(['1', '200', ...range(401, 423).map(String)]);
    expect(await c.get()).toMatchObject({ totalRequestCount: 500, handledRequestCount: 398, pendingRequestCount: 102 });
  });

  it('placeholders (a re-added request whose old entry is still queued) are skipped; its place is exact', async () => {
    world = createWorld(backend, 'placeholder');
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2)]);
    await c.deleteRequest(id(1));
    await c.batchAddRequests([req(3), req(1), req(5)]);
    expect(await head(c, 10)).toEqual(['2', '3', '1', '5']);
    await handle(c, [2, 3]);
    expect(await head(c, 10)).toEqual(['1', '5']);
    const keys = queueKeys(world.keyPrefix, world.name);
    expect(await world.redis.lrange(keys.fifo, 0, -1)).toEqual([id(5)]);
  });
});

describe('listHead work is bounded by limit and the entries it skips', () => {
  let server: RedisServerHandle;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.destroy();
  });

  it('no whole-list read on a long queue; skipped entries are paid for once', async () => {
    const redis = new Redis(server.url);
    const storage = new RedisStorageClient({ redis, keyPrefix: 'bounded' });
    await storage.requestQueues().getOrCreate('q');
    const c = storage.requestQueue('q', { clientKey: 'a' }) as RedisRequestQueueClient;
    for (let start = 1; start <= 20_000; start += 1000) await c.batchAddRequests(range(start, start + 999).map((n) => req(n)));
    await handle(c, range(2, 3000));
    const monitorOwner = new Redis(server.url);
    const monitor = await monitorOwner.monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source === 'lua') seen.push(args);
    });
    const commands = async (limit: number) => {
      await redis.ping();
      const before = seen.length;
      const items = await head(c, limit);
      await redis.ping();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { items, run: seen.slice(before) };
    };
    const first = await commands(20);
    expect(first.items).toEqual(['1', ...range(3001, 3019).map(String)]);
    const second = await commands(20);
    expect(second.items).toEqual(first.items);
    monitor.disconnect();
    monitorOwner.disconnect();
    await redis.quit();
    // One LRANGE and one HMGET per chunk of about `limit` entries: the first call skipped the 2,999 stale entries
    // once (and cut them), the second reads about `limit` entries.
    expect(first.run.length).toBeLessThan(200);
    expect(second.run.length).toBeLessThan(15);
    for (const [command, ...args] of [...first.run, ...second.run]) {
      if (command!.toUpperCase() === 'LRANGE') expect(Number(args[2]) - Number(args[1])).toBeLessThan(100);
      expect(['LRANGE', 'ZRANGE'].includes(command!.toUpperCase()) && args[2] === '-1').toBe(false);
    }
  }, 60_000);
});

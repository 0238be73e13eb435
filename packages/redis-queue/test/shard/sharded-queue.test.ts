import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { QueueCore } from '../../src/queue/queue-core.js';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { ShardLayoutMismatchError } from '../../src/errors/shard-layout-mismatch-error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import { queueKeys } from '../../src/core/keys.js';
import { shardQueueKeys, shardTag } from '../../src/shard/shard-keys.js';
import { shardOf } from '../../src/shard/shard-of.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

const hostReq = (host: number, path: number | string) => {
  const url = `https://h${host}.example/${path}`;
  return { url, uniqueKey: url, method: 'GET' as const, userData: {} };
};

describe('sharded queue (shards: S) on one standalone Redis', () => {
  let backend: TestBackend;
  let world: QueueWorld | undefined;
  beforeAll(async () => {
    backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
  });
  afterAll(() => backend.stop());
  afterEach(async () => {
    await world?.cleanup();
    world = undefined;
  });
  const fresh = (shards = 4, shardBy: 'host' | 'uniqueKey' = 'host') => (world = createWorld(backend, 'sq', { shards, shardBy }));

  it('shard tags sit in their own 1/S of the slots, one per shard, and differ from the root tag', () => {
    const tags = Array.from({ length: 12 }, (_, s) => shardTag('p', 'crawl', s, 12));
    expect(new Set(tags).size).toBe(12);
    tags.forEach((tag, s) => {
      expect(slotOf(tag)).toBeGreaterThanOrEqual(Math.floor((s * 16384) / 12));
      expect(slotOf(tag)).toBeLessThan(Math.floor(((s + 1) * 16384) / 12));
    });
    const keys = shardQueueKeys('p', 'crawl', 3, 12);
    expect(keys.tag).toBe(tags[3]);
    for (const key of keys.all) expect(key.startsWith(tags[3]!)).toBe(true);
    expect(keys.tag).not.toBe(queueKeys('p', 'crawl').tag);
  });

  it('the shard is a function of the uniqueKey: its host by default, the whole key with shardBy uniqueKey', () => {
    const a = shardOf('https://h1.example/a', 12, 'host');
    expect(shardOf('https://h1.example/b?x=1', 12, 'host')).toBe(a);
    expect(shardOf('http://H1.example:8080/c', 12, 'host')).toBe(a);
    // A fingerprint (not a URL) is hashed whole; spread over shards.
    const fps = Array.from({ length: 200 }, (_, i) => i.toString(16).padStart(40, '0'));
    expect(new Set(fps.map((f) => shardOf(f, 12, 'host'))).size).toBe(12);
    const byKey = Array.from({ length: 200 }, (_, i) => shardOf(`https://h1.example/${i}`, 12, 'uniqueKey'));
    expect(new Set(byKey).size).toBe(12);
  });

  it('adds spread over shards, dedup by uniqueKey holds across clients, counters are sums, every request is locked once', async () => {
    const w = fresh(4);
    const adder = await w.client('adder');
    const requests = Array.from({ length: 120 }, (_, i) => hostReq(i % 24, i));
    const added = await adder.batchAddRequests(requests);
    expect(added.processedRequests.filter((p) => !p.wasAlreadyPresent)).toHaveLength(120);
    // 8 clients add one new key at once: exactly one enqueues.
    const racers = await Promise.all(Array.from({ length: 8 }, (_, i) => w.client(`r${i}`)));
    const race = await Promise.all(racers.map((c) => c.addRequest(hostReq(99, 'same'))));
    expect(race.filter((r) => !r.wasAlreadyPresent)).toHaveLength(1);
    expect((await adder.get())?.totalRequestCount).toBe(121);
    const perShard = await Promise.all(Array.from({ length: 4 }, (_, s) => w.redis.hlen(shardQueueKeys(w.keyPrefix, w.name, s, 4).data)));
    expect(perShard.reduce((a, b) => a + b, 0)).toBe(121);
    expect(perShard.filter((n) => n > 0).length).toBeGreaterThan(1);
    const workers = await Promise.all(Array.from({ length: 3 }, (_, i) => w.client(`w${i}`)));
    const seen: string[] = [];
    for (let round = 0; round < 20; round++) {
      const heads = await Promise.all(workers.map((c) => c.listAndLockHead({ limit: 10, lockSecs: 60 })));
      seen.push(...heads.flatMap((h) => h.items.map((i) => i.id)));
    }
    expect(seen).toHaveLength(121);
    expect(new Set(seen).size).toBe(121);
    expect((await w.admin().stats()).locked).toBe(121);
  });

  it('no worker finishes while any shard holds a lock; a client that did not lock a request finds it by id', async () => {
    const w = fresh(6);
    const a = await w.client('a');
    const b = await w.client('b');
    await a.addRequest(hostReq(1, 1));
    const head = await a.listAndLockHead({ limit: 5, lockSecs: 60 });
    expect(head.items).toHaveLength(1);
    const other = await b.listAndLockHead({ limit: 5, lockSecs: 60 });
    expect(other.items).toHaveLength(0);
    expect(other.queueHasLockedRequests).toBe(true);
    expect((await b.getRequest(head.items[0]!.id))?.url).toBe('https://h1.example/1');
    await a.updateRequest({ ...hostReq(1, 1), id: head.items[0]!.id, handledAt: new Date().toISOString() });
    const done = await b.listAndLockHead({ limit: 5, lockSecs: 60 });
    expect(done.queueHasLockedRequests).toBe(false);
    const info = await b.get();
    expect([info?.totalRequestCount, info?.handledRequestCount, info?.pendingRequestCount]).toEqual([1, 1, 0]);
  });

  it('FIFO and forefront-first hold within a shard', async () => {
    const w = fresh(3);
    const c = await w.client('c');
    await c.batchAddRequests([hostReq(7, 'a'), hostReq(7, 'b')]);
    await c.addRequest(hostReq(7, 'f'), { forefront: true });
    await c.addRequest(hostReq(7, 'c'));
    const head = await c.listAndLockHead({ limit: 10, lockSecs: 60 });
    expect(head.items.map((i) => i.url.slice('https://h7.example/'.length))).toEqual(['f', 'a', 'b', 'c']);
  });

  it('another shard count or rule for an existing queue is refused with a typed error, and nothing is written', async () => {
    const w = fresh(4);
    await w.client('a');
    const before = await w.redis.hgetall(queueKeys(w.keyPrefix, w.name).meta);
    await expect(w.client('b', { shards: 2 })).rejects.toBeInstanceOf(ShardLayoutMismatchError);
    await expect(w.client('b', { shards: 1 })).rejects.toThrow(/created with shards: 4, shardBy: 'host'.*opened with shards: 1/);
    await expect(w.client('b', { shardBy: 'uniqueKey' })).rejects.toBeInstanceOf(ShardLayoutMismatchError);
    expect(await w.redis.hgetall(queueKeys(w.keyPrefix, w.name).meta)).toEqual(before);
    // An unsharded queue (also one created before layouts were recorded) refuses shards: 4.
    const u = createWorld(backend, 'plain');
    try {
      await u.client('x');
      await u.redis.hdel(queueKeys(u.keyPrefix, u.name).meta, 'shards', 'shardBy');
      await expect(u.client('y', { shards: 4 })).rejects.toThrow(/created with shards: 1, but was opened with shards: 4/);
      expect(await u.redis.exists(shardQueueKeys(u.keyPrefix, u.name, 0, 4).meta)).toBe(0);
    } finally {
      await u.cleanup();
    }
  });

  it('bad shard options are typed errors; names that look like a shard are refused', async () => {
    const w = fresh(2);
    expect(() => w.storageClient({ shards: 0 })).toThrow(InvalidOptionsError);
    expect(() => w.storageClient({ shards: 257 })).toThrow(/shards must be a whole number from 1 to 256/);
    expect(() => w.storageClient({ shardBy: 'path' as 'host' })).toThrow(InvalidOptionsError);
    await expect(w.storageClient().requestQueues().getOrCreate('crawl#3.12')).rejects.toBeInstanceOf(InvalidOptionsError);
  });

  it('the admin sums, drops and forgets over every shard', async () => {
    const w = fresh(4, 'uniqueKey');
    const c = await w.client('c');
    await c.batchAddRequests(Array.from({ length: 40 }, (_, i) => hostReq(1, i)));
    await c.listAndLockHead({ limit: 5, lockSecs: 60 });
    const admin = w.admin();
    expect(await admin.stats()).toMatchObject({ total: 40, pending: 40, locked: 5, handled: 0 });
    expect((await admin.lockExpiries()).locked).toBe(5);
    expect(await admin.forget(['https://h1.example/3', 'https://h1.example/none'])).toEqual({ forgotten: ['https://h1.example/3'], missing: ['https://h1.example/none'], keptAsBits: [] });
    expect((await admin.stats()).total).toBe(39);
    await admin.dropHashTag();
    for (let s = 0; s < 4; s++) expect(await w.redis.exists(shardQueueKeys(w.keyPrefix, w.name, s, 4).data)).toBe(0);
    expect(await w.redis.exists(queueKeys(w.keyPrefix, w.name).meta)).toBe(0);
  });

  it('admin leases keep every client of a sharded queue open; failed requests and takeover over shards', async () => {
    const w = fresh(4, 'uniqueKey');
    const c = await w.client('c');
    const admin = w.admin();
    const lease = await admin.openProducerLease({ leaseSecs: 30 });
    expect((await c.listAndLockHead({ limit: 5, lockSecs: 60 })).queueHasLockedRequests).toBe(true);
    expect(await admin.producerLeases()).toHaveLength(1);
    await lease.release();
    expect((await c.listAndLockHead({ limit: 5, lockSecs: 60 })).queueHasLockedRequests).toBe(false);
    await c.batchAddRequests(Array.from({ length: 12 }, (_, i) => hostReq(2, i)));
    const head = await c.listAndLockHead({ limit: 12, lockSecs: 60 });
    let items = head.items;
    while (items.length < 12) items = [...items, ...(await c.listAndLockHead({ limit: 12, lockSecs: 60 })).items];
    for (const item of items) {
      const n = item.url.slice('https://h2.example/'.length);
      // Crawlee's error-handler state (5): failed for good.
      await c.updateRequest({ ...hostReq(2, n), userData: { __crawlee: { state: 5 } }, id: item.id, handledAt: new Date().toISOString() });
    }
    expect(await admin.failedCount()).toBe(12);
    expect(await admin.failed({ limit: 5, offset: 10 })).toHaveLength(2);
    expect((await admin.requeueFailed()).requeued).toBe(12);
    expect(await admin.stats()).toMatchObject({ total: 12, pending: 12, handled: 0 });
    // A takeover into a sharded queue works (test/shard/sharded-feed.test.ts); a missing frontier moves nothing.
    expect(await admin.takeOverScrapyRequests({ key: `${w.keyPrefix}-x:requests` })).toMatchObject({ moved: 0, batches: 0 });
    await admin.close();
  });

  it('the busy path asks one shard per call; empty shards are asked again only when nothing is found elsewhere', async () => {
    const w = fresh(12);
    const c = await w.client('c');
    // Work in two shards only: two hosts whose shards differ.
    const shardOfHost = (h: number) => shardOf(`https://h${h}.example/`, 12, 'host');
    const h1 = 1;
    const h2 = [2, 3, 4, 5, 6, 7, 8].find((h) => shardOfHost(h) !== shardOfHost(h1))!;
    await c.batchAddRequests([...Array.from({ length: 30 }, (_, i) => hostReq(h1, i)), ...Array.from({ length: 30 }, (_, i) => hostReq(h2, i))]);
    const cores = (c as unknown as { core: { cores: QueueCore[] } }).core.cores;
    const spies = cores.map((core) => vi.spyOn(core, 'lockHead'));
    const got: string[] = [];
    for (let i = 0; i < 60; i++) got.push(...(await c.listAndLockHead({ limit: 1, lockSecs: 60 })).items.map((item) => item.id));
    expect(new Set(got).size).toBe(60);
    const calls = spies.reduce((a, spy) => a + spy.mock.calls.length, 0);
    // 60 locks: without the empty-shard hint every call after a lock would start at the next (empty) shard and walk
    // up to 10 empty shards first (hundreds of calls); with it, the first sweep finds the empty ones and then about
    // one call per lock.
    expect(calls).toBeLessThan(60 + 2 * 12);
    // Drained: the next call asks every shard (so it can say that nothing is locked or leased anywhere).
    for (const spy of spies) spy.mockClear();
    const empty = await c.listAndLockHead({ limit: 1, lockSecs: 60 });
    expect(empty.items).toHaveLength(0);
    expect(empty.queueHasLockedRequests).toBe(true); // this client holds 60 locks
    expect(spies.every((spy) => spy.mock.calls.length === 1)).toBe(true);
    for (const spy of spies) spy.mockRestore();
  });

  it('an empty walk is confirmed: a request added behind the walk while its parent is handled ahead of it is not missed', async () => {
    // One walk asks the shards one after another. Worker B holds X (shard sx); while A walks, B adds X's link Y to a
    // shard A already passed and then marks X handled before A reaches sx. A single walk then sees no work and no
    // lock, and A would finish with Y pending (this test fails with one walk).
    const w = fresh(4);
    const a = await w.client('a');
    const b = await w.client('b');
    const shardOfHost = (h: number) => shardOf(`https://h${h}.example/`, 4, 'host');
    const hx = 1;
    const sx = shardOfHost(hx);
    await b.addRequest(hostReq(hx, 'x'));
    const [x] = (await b.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
    expect(x).toBeDefined();
    const core = (a as unknown as { core: { cores: QueueCore[]; head: { cursor: number } } }).core;
    const cores = core.cores;
    // A's walk starts right after sx, so X's shard is asked last.
    core.head.cursor = (sx + 1) % 4;
    let fired = false;
    const spies = cores.map((core, s) => {
      const original = core.lockHead.bind(core);
      return vi.spyOn(core, 'lockHead').mockImplementation(async (limit, lockSecs) => {
        const result = await original(limit, lockSecs);
        if (!fired && s !== sx) {
          fired = true;
          // B, between A's visits: Y into the shard A just passed, then X handled (Crawlee's order: links first).
          const hy = Array.from({ length: 50 }, (_, i) => i + 2).find((h) => shardOfHost(h) === s)!;
          await b.addRequest(hostReq(hy, 'y'));
          const stored = await b.getRequest(x!.id);
          await b.updateRequest({ ...stored!, id: x!.id, handledAt: new Date().toISOString() } as Parameters<typeof b.updateRequest>[0]);
        }
        return result;
      });
    });
    try {
      const result = await a.listAndLockHead({ limit: 5, lockSecs: 60 });
      expect(fired).toBe(true);
      // A must not conclude the queue is finished: it either got Y or knows something is still going on.
      expect(result.items.length > 0 || result.queueHasLockedRequests === true).toBe(true);
      expect(result.items.map((item) => item.url)).toEqual([expect.stringMatching(/\/y$/)]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('two layouts racing to create one queue: one wins, every client of the other gets the typed error', async () => {
    const w = fresh(4);
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => w.client(`c${i}`, { shards: i % 2 === 0 ? 4 : 2 })));
    const won = results.map((r, i) => (r.status === 'fulfilled' ? (i % 2 === 0 ? 4 : 2) : 0)).filter((n) => n > 0);
    expect(won).toHaveLength(4);
    expect(new Set(won).size).toBe(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ShardLayoutMismatchError);
  });

  it('a batch with one bad request writes nothing in any shard', async () => {
    const w = fresh(4, 'uniqueKey');
    const c = await w.client('c');
    const batch = [...Array.from({ length: 20 }, (_, i) => hostReq(1, i)), { url: 'https://h1.example/bad', uniqueKey: 'https://h1.example/bad', userData: { f: () => 1 } }];
    await expect(c.batchAddRequests(batch as never)).rejects.toBeInstanceOf(InvalidRequestError);
    const sizes = await Promise.all(Array.from({ length: 4 }, (_, s) => w.redis.hlen(shardQueueKeys(w.keyPrefix, w.name, s, 4).data)));
    expect(sizes).toEqual([0, 0, 0, 0]);
    expect((await c.get())?.totalRequestCount).toBe(0);
  });
});

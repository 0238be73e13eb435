import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Configuration, RequestQueue } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LockLostError } from '../../src/errors/lock-lost-error.js';
import { RequestAlreadyHandledError } from '../../src/errors/request-already-handled-error.js';
import { RequestNotFoundError } from '../../src/errors/request-not-found-error.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import { UnsupportedOperationError } from '../../src/errors/unsupported-operation-error.js';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { resolveLuaIncludes } from '@crawlee-distributed/redis-kit/build';
import { queueKeys, type QueueKeys } from '../../src/core/keys.js';
import { allShardKeys, shardQueueKeys } from '../../src/shard/shard-keys.js';
import { shardOf } from '../../src/shard/shard-of.js';
import { feedClaimKeys } from '../../src/feed/feed-claims.js';
import { createBackend, type BackendKind, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req, type QueueWorld } from '../helpers/world.js';
import type { RedisStorageClientOptions } from '../../src/storage/redis-storage-client.js';
import { handledStoreCount } from '../helpers/handled-store.js';

const LUA_DIR = fileURLToPath(new URL('../../src/lua/', import.meta.url));

/** Crawlee's request id computed here independently: sha256(uniqueKey), base64 without +/=, first 15 chars. */
function expectedId(uniqueKey: string): string {
  return createHash('sha256').update(uniqueKey).digest('base64').replace(/[+/=]/g, '').slice(0, 15);
}

/**
 * The request-queue contract (the numbered guarantees of docs/contract.md), run against one connection flavour.
 *
 * @param kind - connection flavour
 * @param url - the tests' Redis URL
 * @param scope - 'full' or 'core' (a subset for the extra flavours, to keep total test time reasonable)
 * @param defaults - storage client options of every client, e.g. `{ politeness: {} }`: the contract where it
 *   applies to a polite queue (every request of the suite is on one host, so the host's order is the queue order;
 *   the tests that write the unpolite structures directly are skipped); or `{ shards: S }`: a sharded queue
 *   (shardBy host: every `req()` is on example.com, so a test's requests share one shard and every call also goes
 *   through the other, empty shards); `handledRequests` (default 'key'): the handled store every queue of the
 *   suite uses (the contract is the same in each mode)
 */
export function defineContractSuite(kind: BackendKind, url: () => string, scope: 'full' | 'core' = 'full', defaults: Partial<RedisStorageClientOptions> = {}): void {
  const full = scope === 'full' ? it : it.skip;
  const polite = defaults.politeness !== undefined;
  const unpolite = polite ? it.skip : it;
  const shards = defaults.shards ?? 1;
  const handledRequests = defaults.handledRequests ?? 'key';
  // On a sharded queue the feed hands its batches to the shards through a claim in the feed key's slot
  // (src/shard/sharded-feed-drain.ts): the same behaviour, and its claim keys to clean up.
  const feed = full;
  const claimKeysOf = (w: QueueWorld, feedKey: string): string[] => {
    const k = feedClaimKeys(feedKey, queueKeys(w.keyPrefix, w.name).tag);
    return shards > 1 ? [k.claims, k.claimed] : [];
  };
  /** The keys the tests' requests live under: the queue's, or those of example.com's shard. */
  const keysOf = (w: QueueWorld): QueueKeys =>
    shards > 1 ? shardQueueKeys(w.keyPrefix, w.name, shardOf('https://example.com/', shards, 'host'), shards) : queueKeys(w.keyPrefix, w.name);
  const variant = `, handledRequests '${handledRequests}'${polite ? `, politeness ${JSON.stringify(defaults.politeness)}` : ''}${shards > 1 ? `, shards: ${shards}` : ''}`;
  describe(`request-queue contract on ${kind} (${scope}${variant})`, () => {
    let backend: TestBackend;
    let world: QueueWorld;
    beforeAll(async () => {
      backend = await createBackend(kind, url());
    });
    afterAll(async () => {
      await backend?.stop();
    });
    const fresh = () => {
      world = createWorld(backend, 'queue', { handledRequests, ...defaults });
      return world;
    };
    afterEach(async () => {
      vi.useRealTimers();
      await world?.cleanup();
    });

    it('1. listAndLockHead is atomic: concurrent clients on their own connections never get the same request', async () => {
      const w = fresh();
      const seed = await w.client('seed');
      await seed.batchAddRequests(Array.from({ length: 120 }, (_, i) => req(i)));
      const clients = await Promise.all(Array.from({ length: 6 }, (_, i) => w.client(`c${i}`)));
      const heads = await Promise.all(clients.flatMap((c) => [c.listAndLockHead({ limit: 25, lockSecs: 60 }), c.listAndLockHead({ limit: 25, lockSecs: 60 })]));
      const ids = heads.flatMap((h) => h.items.map((item) => item.id));
      expect(ids).toHaveLength(120);
      expect(new Set(ids).size).toBe(120);
    });

    it('1. order: forefront first (newest forefront first), then FIFO', async () => {
      const w = fresh();
      const c = await w.client('a');
      await c.addRequest(req('a'));
      await c.addRequest(req('b'));
      await c.addRequest(req('f1'), { forefront: true });
      await c.batchAddRequests([req('c'), req('d')]);
      await c.batchAddRequests([req('f2'), req('f3')], { forefront: true });
      const head = await c.listAndLockHead({ limit: 25, lockSecs: 60 });
      expect(names(head.items)).toEqual(['f3', 'f2', 'f1', 'a', 'b', 'c', 'd']);
    });

    it('2. time is Redis time: a worker clock one day ahead neither expires nor extends locks', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.addRequest(req(1));
      const [sec] = (await w.redis.time()) as [number | string, number | string];
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 24 * 3600_000);
      await a.listAndLockHead({ limit: 1, lockSecs: 30 });
      const { lockExpiresAt } = await a.prolongRequestLock(expectedId('https://example.com/1'), { lockSecs: 30 });
      const redisNowMs = Number(sec) * 1000;
      // 30 s lock + 30 s prolong from the current expiry, counted on Redis' clock, not the skewed worker clock.
      expect(lockExpiresAt.getTime()).toBeGreaterThanOrEqual(redisNowMs + 59_000);
      expect(lockExpiresAt.getTime()).toBeLessThan(redisNowMs + 65_000);
      vi.useRealTimers();
      // Another worker whose clock is a day ahead still sees the lock as held.
      const head = await b.listAndLockHead({ limit: 5, lockSecs: 30 });
      expect(head.items).toHaveLength(0);
      expect(head.queueHasLockedRequests).toBe(true);
    });

    it('3. a lock has an owner: prolong by another client throws, deleteRequestLock by another client does nothing', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.addRequest(req(1));
      const id = expectedId('https://example.com/1');
      await a.listAndLockHead({ limit: 1, lockSecs: 60 });
      await expect(b.prolongRequestLock(id, { lockSecs: 60 })).rejects.toMatchObject({ code: 'LOCK_LOST', lockedByOther: true });
      await expect(b.deleteRequestLock(id)).resolves.toBeUndefined();
      expect((await b.listAndLockHead({ limit: 5, lockSecs: 60 })).items).toHaveLength(0);
      await expect(a.prolongRequestLock(id, { lockSecs: 60 })).resolves.toHaveProperty('lockExpiresAt');
      await a.deleteRequestLock(id);
      await a.deleteRequestLock(id); // idempotent
      expect(names((await b.listAndLockHead({ limit: 5, lockSecs: 60 })).items)).toEqual(['1']);
    });

    it('3. prolong of a handled, unknown or recovered request throws typed errors', async () => {
      const w = fresh();
      const a = await w.client('a');
      await a.batchAddRequests([req(1), req(2)]);
      const head = await a.listAndLockHead({ limit: 2, lockSecs: 10 });
      const [one, two] = head.items;
      await a.updateRequest({ ...req(1), id: one!.id, handledAt: new Date().toISOString() });
      await expect(a.prolongRequestLock(one!.id, { lockSecs: 10 })).rejects.toBeInstanceOf(RequestAlreadyHandledError);
      await expect(a.prolongRequestLock('nonexistent12345', { lockSecs: 10 })).rejects.toBeInstanceOf(RequestNotFoundError);
      w.advance(11_000);
      const b = await w.client('b');
      await b.listAndLockHead({ limit: 0, lockSecs: 10 }); // recovers expired locks only
      const error = await a.prolongRequestLock(two!.id, { lockSecs: 10 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LockLostError);
      expect((error as LockLostError).lockedByOther).toBe(false);
    });

    full('3. refreshRequestLock counts from now (handler heartbeats do not pile up lock time)', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.addRequest(req(1));
      const id = expectedId('https://example.com/1');
      await a.listAndLockHead({ limit: 1, lockSecs: 30 });
      w.advance(10_000);
      for (let beat = 0; beat < 3; beat++) await a.refreshRequestLock(id, { lockSecs: 30 });
      w.advance(31_000); // 41 s after the lock, 31 s after the last beat
      expect(names((await b.listAndLockHead({ limit: 5, lockSecs: 30 })).items)).toEqual(['1']);
      await expect(a.refreshRequestLock(id, { lockSecs: 30 })).rejects.toBeInstanceOf(LockLostError);
    });

    full('3. fastProlong: a fresh lock is prolonged without waiting, with the same expiry rule; stale or handled ones still check', async () => {
      const w = fresh();
      const a = await w.client('a', { fastProlong: true });
      const b = await w.client('b');
      await a.batchAddRequests([req(1), req(2)]);
      const [one, two] = (await a.listAndLockHead({ limit: 2, lockSecs: 30 })).items;
      const { lockExpiresAt } = await a.prolongRequestLock(one!.id, { lockSecs: 30 });
      const [sec] = (await w.redis.time()) as [number | string, number | string];
      expect(lockExpiresAt.getTime()).toBeGreaterThan(Number(sec) * 1000 + 55_000);
      await a.updateRequest({ ...req(2), id: two!.id, handledAt: new Date().toISOString() });
      await expect(a.prolongRequestLock(two!.id, { lockSecs: 30 })).rejects.toBeInstanceOf(RequestAlreadyHandledError);
      w.advance(35_000); // past the lock time asked for, inside the prolonged one (taken with the lock)
      expect((await b.listAndLockHead({ limit: 5, lockSecs: 30 })).items).toHaveLength(0);
      w.advance(30_000);
      expect(names((await b.listAndLockHead({ limit: 5, lockSecs: 30 })).items)).toEqual(['1']);
    });

    full('3. fastProlong takes the lock for twice the lock time; a prolong with another lock time counts from the lock it asked for', async () => {
      const w = fresh();
      const a = await w.client('a', { fastProlong: true });
      const b = await w.client('b');
      await a.batchAddRequests([req(1), req(2), req(3)]);
      const [sec] = (await w.redis.time()) as [number | string, number | string];
      const t0 = Number(sec) * 1000;
      const [one, two, three] = (await a.listAndLockHead({ limit: 3, lockSecs: 30 })).items;
      // What the prolong Crawlee makes next would set (30 s from the 30 s expiry), already in Redis.
      const lockOfOne = Number(await w.redis.zscore(keysOf(w).locks, one!.id));
      expect(lockOfOne).toBeGreaterThanOrEqual(t0 + 60_000);
      expect(lockOfOne).toBeLessThan(t0 + 62_000);
      expect((await a.prolongRequestLock(one!.id, { lockSecs: 30 })).lockExpiresAt.getTime()).toBe(lockOfOne);
      // Another lock time: asked of Redis, from the 30 s lock that was asked for, not from the doubled one.
      const other = (await a.prolongRequestLock(two!.id, { lockSecs: 10 })).lockExpiresAt.getTime();
      expect(other).toBeGreaterThanOrEqual(t0 + 40_000);
      expect(other).toBeLessThan(t0 + 42_000);
      // A request left locked and never prolonged (a worker killed with it in its buffer) comes back after 2x.
      w.advance(45_000);
      expect(names((await b.listAndLockHead({ limit: 5, lockSecs: 30 })).items)).toEqual(['2']);
      w.advance(17_000);
      // Asked by a third worker: 2 and 1 were started when their locks expired (a stall each, with maxStalls), and
      // b still holds 2, so b would get no second such request (one per lock owner, the stall guard).
      const c = await w.client('c');
      expect(names((await c.listAndLockHead({ limit: 5, lockSecs: 30 })).items)).toEqual(['1', '3']);
      expect(three).toBeDefined();
    });

    it('4. expired locks come back lazily at their original position (a killed worker loses nothing)', async () => {
      const w = fresh();
      const dead = await w.client('dead-worker');
      await dead.batchAddRequests([req('a'), req('b'), req('c'), req('d'), req('e')]);
      await dead.addRequest(req('f'), { forefront: true });
      expect(names((await dead.listAndLockHead({ limit: 3, lockSecs: 30 })).items)).toEqual(['f', 'a', 'b']);
      const b = await w.client('b');
      expect(names((await b.listAndLockHead({ limit: 1, lockSecs: 30 })).items)).toEqual(['c']);
      w.advance(29_000);
      expect(names((await b.listAndLockHead({ limit: 1, lockSecs: 30 })).items)).toEqual(['d']);
      w.advance(2_000); // t = 31 s: the dead worker's locks and b's lock of c expired; b's lock of d has 28 s left
      expect(names((await b.listAndLockHead({ limit: 25, lockSecs: 30 })).items)).toEqual(['f', 'a', 'b', 'c', 'e']);
    });

    full('4. releaseLocks hands a stopping worker\'s locks back at once, at their original places', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.batchAddRequests([req(1), req(2), req(3), req(4)]);
      const items = (await a.listAndLockHead({ limit: 3, lockSecs: 600 })).items;
      await a.updateRequest({ ...req(2), id: items[1]!.id, handledAt: new Date().toISOString() });
      expect(await a.releaseLocks()).toBe(2);
      expect(names((await b.listAndLockHead({ limit: 25, lockSecs: 600 })).items)).toEqual(['1', '3', '4']);
      expect(await a.releaseLocks()).toBe(0);
    });

    it('5. queueHasLockedRequests is true while any client holds an unexpired lock, so Crawlee does not finish early', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.addRequest(req(1));
      const [item] = (await a.listAndLockHead({ limit: 25, lockSecs: 60 })).items;
      const other = await b.listAndLockHead({ limit: 25, lockSecs: 60 });
      expect(other.items).toHaveLength(0);
      expect(other.queueHasLockedRequests).toBe(true);

      // Crawlee's own RequestQueue on client b: not finished while a works.
      const sc = w.storageClient();
      const queue = new RequestQueue({ id: w.name, name: w.name, client: sc }, new Configuration({ persistStorage: false }));
      expect(await queue.isFinished()).toBe(false);

      await a.updateRequest({ ...req(1), id: item!.id, handledAt: new Date().toISOString() });
      const after = await b.listAndLockHead({ limit: 25, lockSecs: 60 });
      expect(after.queueHasLockedRequests).toBe(false);
      expect(await queue.isFinished()).toBe(true);
    });

    it('5. a lock that expires makes the request available again and stops counting as locked', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.addRequest(req(1));
      await a.listAndLockHead({ limit: 25, lockSecs: 5 });
      expect((await b.listAndLockHead({ limit: 25, lockSecs: 5 })).queueHasLockedRequests).toBe(true);
      w.advance(6_000);
      const head = await b.listAndLockHead({ limit: 25, lockSecs: 5 });
      expect(names(head.items)).toEqual(['1']);
      expect(head.queueHasLockedRequests).toBe(true); // b holds it now
    });

    it('6. updateRequest never throws on a lost lock; marking handled is atomic and idempotent', async () => {
      const w = fresh();
      const a = await w.client('a');
      const b = await w.client('b');
      await a.batchAddRequests([req(1), req(2)]);
      const [one] = (await a.listAndLockHead({ limit: 1, lockSecs: 5 })).items;
      w.advance(6_000);
      expect(names((await b.listAndLockHead({ limit: 1, lockSecs: 60 })).items)).toEqual(['1']);
      // a lost its lock; a reclaim stores the new state but leaves b's lock alone.
      await expect(a.updateRequest({ ...req(1), id: one!.id, retryCount: 1 })).resolves.toMatchObject({ wasAlreadyHandled: false, wasAlreadyPresent: true });
      await expect(b.prolongRequestLock(one!.id, { lockSecs: 60 })).resolves.toHaveProperty('lockExpiresAt');
      expect((await a.getRequest(one!.id))?.retryCount).toBe(1);
      // a marks it handled anyway (it did the work): no throw, counters move once.
      const handledAt = new Date().toISOString();
      expect(await a.updateRequest({ ...req(1), id: one!.id, handledAt })).toMatchObject({ wasAlreadyHandled: false });
      expect(await b.updateRequest({ ...req(1), id: one!.id, handledAt })).toMatchObject({ wasAlreadyHandled: true });
      const info = await a.get();
      expect(info).toMatchObject({ totalRequestCount: 2, handledRequestCount: 1, pendingRequestCount: 1 });
      expect((await b.listAndLockHead({ limit: 25, lockSecs: 60 })).queueHasLockedRequests).toBe(true);
      expect(names((await b.listAndLockHead({ limit: 25, lockSecs: 60 })).items)).toEqual([]);
    });

    it('6. a reclaim by the owner releases the lock and keeps the original position (or moves to the head with forefront)', async () => {
      const w = fresh();
      const a = await w.client('a');
      await a.batchAddRequests([req(1), req(2), req(3), req(4)]);
      const items = (await a.listAndLockHead({ limit: 3, lockSecs: 60 })).items;
      await a.updateRequest({ ...req(1), id: items[0]!.id, retryCount: 1 });
      await a.updateRequest({ ...req(3), id: items[2]!.id, retryCount: 1 }, { forefront: true });
      const b = await w.client('b');
      expect(names((await b.listAndLockHead({ limit: 25, lockSecs: 60 })).items)).toEqual(['3', '1', '4']);
    });

    it('7. dedup by uniqueKey with Crawlee\'s own request id; 8 clients adding one new key: exactly one adds it', async () => {
      const w = fresh();
      const clients = await Promise.all(Array.from({ length: 8 }, (_, i) => w.client(`c${i}`)));
      const results = await Promise.all(clients.map((c) => c.addRequest(req('same'))));
      expect(results.filter((r) => !r.wasAlreadyPresent)).toHaveLength(1);
      for (const r of results) expect(r.requestId).toBe(expectedId('https://example.com/same'));
      expect(await clients[0]!.get()).toMatchObject({ totalRequestCount: 1, pendingRequestCount: 1 });
      await expect(clients[0]!.addRequest({ ...req('x'), id: 'not-the-right-id' })).rejects.toBeInstanceOf(InvalidRequestError);
    });

    full('7. a batch larger than one script call is chunked and keeps per-request results in order', async () => {
      const w = fresh();
      const c = await w.client('a', { addBatchSize: 100 });
      await c.batchAddRequests([req(5), req(700)]);
      const batch = Array.from({ length: 1200 }, (_, i) => req(i));
      const { processedRequests, unprocessedRequests } = await c.batchAddRequests(batch);
      expect(unprocessedRequests).toEqual([]);
      expect(processedRequests).toHaveLength(1200);
      expect(processedRequests.map((p) => p.uniqueKey)).toEqual(batch.map((r) => r.uniqueKey));
      expect(processedRequests.filter((p) => p.wasAlreadyPresent).map((p) => p.uniqueKey)).toEqual(['https://example.com/5', 'https://example.com/700']);
      expect(await c.get()).toMatchObject({ totalRequestCount: 1200, pendingRequestCount: 1200, handledRequestCount: 0 });
    });

    it('8. get() resolves by name; counters live in Redis and match the data after concurrent work', async () => {
      const w = fresh();
      const sc = w.storageClient();
      const created = await sc.requestQueues().getOrCreate(w.name);
      expect(created.id).toBe(w.name);
      expect(await sc.requestQueue(w.name).get()).toMatchObject({ id: w.name, name: w.name, totalRequestCount: 0 });
      const clients = await Promise.all(Array.from({ length: 4 }, (_, i) => w.client(`c${i}`)));
      await Promise.all(clients.map((c, i) => c.batchAddRequests(Array.from({ length: 60 }, (_, j) => req((i * 30 + j) % 150)))));
      await Promise.all(
        clients.map(async (c) => {
          for (;;) {
            const head = await c.listAndLockHead({ limit: 7, lockSecs: 60 });
            if (head.items.length === 0) break;
            for (const [k, item] of head.items.entries()) {
              if (k % 3 === 2) await c.updateRequest({ ...req(item.url.slice(20)), id: item.id, retryCount: 1 });
              else await c.updateRequest({ ...req(item.url.slice(20)), id: item.id, handledAt: new Date().toISOString() });
            }
          }
        }),
      );
      const info = await clients[0]!.get();
      expect(info).toMatchObject({ totalRequestCount: 150, handledRequestCount: 150, pendingRequestCount: 0 });
      const keys = keysOf(w);
      // Handled requests left data for the handled store of the mode (an invariant every handled-store mode shares).
      expect(await w.redis.hlen(keys.data)).toBe(0);
      const stored = await handledStoreCount(w.redis, keys, handledRequests);
      if (handledRequests === 'bits') expect(stored).toBeGreaterThan(149);
      else expect(stored).toBe(150);
      expect(await w.redis.zcard(keys.back)).toBe(0);
      expect(await w.redis.hlen(keys.held)).toBe(0);
      expect(await w.redis.zcard(keys.locks)).toBe(0);
      expect(await w.admin().stats()).toEqual({ total: 150, pending: 0, locked: 0, handled: 150, deadLetters: 0 });
    });

    unpolite('9. no O(queue) scan: handled requests leave the order sets, and no script uses a whole-keyspace or whole-hash command', async () => {
      const w = fresh();
      const c = await w.client('a');
      await c.batchAddRequests(Array.from({ length: 300 }, (_, i) => req(i, { handledAt: new Date().toISOString() })));
      await c.batchAddRequests([req('p1'), req('p2')]);
      const keys = keysOf(w);
      expect(await w.redis.hlen(keys.data)).toBe(2);
      expect(await w.redis.llen(keys.fifo)).toBe(2);
      expect(names((await c.listAndLockHead({ limit: 25, lockSecs: 60 })).items)).toEqual(['p1', 'p2']);
      const forbidden = /'(KEYS|SCAN|HSCAN|SSCAN|ZSCAN|HGETALL|HKEYS|HVALS|SMEMBERS|LRANGE)'|ZRANGE[^\n]*-1\)/;
      // The scripts as they run on Redis: every include pulled in.
      for (const file of readdirSync(LUA_DIR).filter((f) => f.endsWith('.lua'))) {
        const lua = resolveLuaIncludes(`${LUA_DIR}${file}`).source.replace(/--\[\[[\s\S]*?\]\]/, '');
        // The feed step of add-requests reads a bounded LRANGE of the feed (batch size), never the whole list.
        // A 'key' index split reads one bucket (at most about 2 x load entries), never the index.
        // listHead walks a list in chunks of at most 1,000 entries, only as far as its limit needs; listAndLockHead
        // reads the lists' heads in chunks of its limit + 16 entries, only as far as it locks.
        const checked = (file === 'add-requests.lua' ? lua.replace("redis.call('LRANGE', feedKey, 0, n - 1)", '') : lua)
          .replace("redis.call('HGETALL', old)", '')
          .replace("redis.call('LRANGE', key, start, start + chunk - 1)", '')
          .replace("redis.call('LRANGE', key, r.base, r.base + chunk - 1)", '');
        expect(checked, file).not.toMatch(forbidden);
      }
    });

    it('10. every key of a queue shares one hash tag, so each script stays on one Cluster slot', async () => {
      const w = fresh();
      const c = await w.client('a');
      await c.batchAddRequests([req(1), req(2)]);
      await c.listAndLockHead({ limit: 1, lockSecs: 60 });
      const keys = keysOf(w);
      if (shards === 1) expect(keys.tag).toBe(`{${w.keyPrefix}:rq:${w.name}}`);
      expect(new Set(keys.all.map(slotOf)).size).toBe(1);
      for (const key of keys.all) expect(key.startsWith(keys.tag)).toBe(true);
      if (!backend.isCluster) {
        // A sharded queue's keys: each shard's under its own tag, plus the root meta (the recorded layout).
        const tags = shards > 1 ? [queueKeys(w.keyPrefix, w.name).tag, ...allShardKeys(w.keyPrefix, w.name, shards).map((k) => k.tag)] : [keys.tag];
        const [, found] = await w.redis.scan('0', 'MATCH', `*${w.keyPrefix}*`, 'COUNT', 100000);
        const queueKeysFound = found.filter((k) => k !== `${w.keyPrefix}:rq:index`);
        expect(queueKeysFound.length).toBeGreaterThan(3);
        for (const key of queueKeysFound) expect(tags.some((tag) => key.startsWith(tag))).toBe(true);
      }
    });

    unpolite('11. unreadable entries (truncated JSON, unknown format, empty string, pickle bytes) go to the dead letters; valid work goes on', async () => {
      const w = fresh();
      const c = await w.client('a');
      await c.addRequest(req('v1'));
      const keys = keysOf(w);
      const pickle = Buffer.from([0x80, 0x05, 0x95, 0x1a, 0x00, 0x00, 0x00, 0xff, 0xfe, 0x7d, 0x94]); // scrapy-redis entry
      const poison: Record<string, string | Buffer> = { p1: '{"url":"https://exa', p2: '{"v":99,"payload":"x"}', p3: '', p4: pickle };
      for (const [id, raw] of Object.entries(poison)) {
        // Written the way another program (or a bug) would: data plus a FIFO entry, counters untouched by us.
        await w.redis.hset(keys.data, id, raw);
        await w.redis.rpush(keys.fifo, id);
        await w.redis.hincrby(keys.meta, 'pending', 1);
        await w.redis.hincrby(keys.meta, 'total', 1);
      }
      await c.addRequest(req('v2'));
      const head = await c.listAndLockHead({ limit: 25, lockSecs: 60 });
      expect(names(head.items)).toEqual(['v1', 'v2']);
      const letters = await w.admin().listDeadLetters();
      expect(Object.fromEntries(letters.map((l) => [l.id, l.raw]))).toEqual(
        Object.fromEntries(Object.entries(poison).map(([id, raw]) => [id, Buffer.from(raw)])),
      );
      expect(letters.find((l) => l.id === 'p1')!.reason).toMatch(/unreadable JSON/);
      expect(letters.find((l) => l.id === 'p2')!.reason).toMatch(/unknown format/);
      expect(letters.find((l) => l.id === 'p3')!.reason).toMatch(/empty/);
      expect(letters.find((l) => l.id === 'p4')!.reason).toMatch(/not UTF-8/);
      expect(await w.admin().stats()).toMatchObject({ total: 2, pending: 2, locked: 2, deadLetters: 4 });
      // Nothing is left locked or available for the poison: no worker can loop on it.
      expect(await w.redis.hlen(keys.data)).toBe(2);
      expect(await w.redis.llen(keys.fifo)).toBe(0);
    });

    full('11. getRequest of an unreadable entry returns undefined and dead-letters it', async () => {
      const w = fresh();
      const c = await w.client('a');
      const keys = keysOf(w);
      await w.redis.hset(keys.data, 'bad', '{"url":');
      await w.redis.hset(keys.data, 'binary', Buffer.from([0xff, 0x00, 0xfe]));
      expect(await c.getRequest('bad')).toBeUndefined();
      expect(await c.getRequest('binary')).toBeUndefined();
      expect(await w.redis.hexists(keys.data, 'bad')).toBe(0);
      expect(await w.redis.hget(keys.dead, 'bad')).toBe('{"url":');
      expect(await w.redis.hgetBuffer(keys.dead, 'binary')).toEqual(Buffer.from([0xff, 0x00, 0xfe]));
    });

    feed('start-URL feed and admin work on this connection flavour (Buffers, hashes, RESP2/RESP3 replies)', async () => {
      const w = fresh();
      // On a Cluster the feed shares the queue's hash tag, so the atomic read-check-trim path is used there too.
      const feedKey = `${keysOf(w).tag}:start_urls`;
      await w.redis.rpush(feedKey, 'https://example.com/s1', Buffer.from([0xff, 0xfe]), '{"url":"https://example.com/s2","meta":{"k":1}}');
      const c = await w.client('a', { startUrls: { key: feedKey } });
      const head = await c.listAndLockHead({ limit: 25, lockSecs: 60 });
      expect(names(head.items)).toEqual(['s1', 's2']);
      expect((await c.getRequest(head.items[1]!.id))?.userData).toMatchObject({ k: 1 });
      expect(await w.redis.llen(feedKey)).toBe(0);
      const admin = w.admin();
      const letters = await admin.listDeadLetters();
      expect(letters.map((l) => [l.source, l.raw])).toEqual([['feed', Buffer.from([0xff, 0xfe])]]);
      expect(await admin.stats()).toEqual({ total: 2, pending: 2, locked: 2, handled: 0, deadLetters: 1 });
      expect(await admin.purge()).toBe(2);
      expect(await admin.stats()).toEqual({ total: 0, pending: 0, locked: 0, handled: 0, deadLetters: 0 });
    });

    feed('set and sorted-set start-URL feeds, in the queue\'s hash tag (atomic) and outside it (popped then committed)', async () => {
      const w = fresh();
      const tag = keysOf(w).tag;
      const keys = { inSet: `${tag}:set`, inZset: `${tag}:zset`, outSet: `${w.keyPrefix}-o:set`, outZset: `${w.keyPrefix}-o:zset` };
      try {
        for (const [name, key] of Object.entries(keys)) {
          if (name.endsWith('Set')) await w.redis.sadd(key, ...Array.from({ length: 12 }, (_, i) => `https://example.com/${name}${i}`));
          else await w.redis.zadd(key, ...Array.from({ length: 12 }, (_, i) => [i, `https://example.com/${name}${i}`]).flat());
        }
        const clients = await Promise.all(
          ['a', 'b', 'c'].map((k) => w.client(k, { startUrls: { keys: Object.values(keys), type: 'auto', batchSize: 5 } })),
        );
        const got = (
          await Promise.all(
            clients.map(async (c) => {
              const mine: string[] = [];
              for (;;) {
                const head = await c.listAndLockHead({ limit: 4, lockSecs: 60 });
                if (head.items.length === 0) return mine;
                mine.push(...names(head.items));
              }
            }),
          )
        ).flat();
        expect(got).toHaveLength(48);
        expect(new Set(got).size).toBe(48);
        for (const key of Object.values(keys)) expect(await w.redis.exists(key)).toBe(0);
      } finally {
        await w.redis.del(keys.outSet);
        await w.redis.del(keys.outZset);
        for (const key of Object.values(keys)) for (const claimKey of claimKeysOf(w, key)) await w.redis.del(claimKey);
      }
    });

    feed('start-URL feed on a key outside the queue\'s hash tag (on a Cluster: another slot, popped then committed)', async () => {
      const w = fresh();
      const feedKey = `${w.keyPrefix}-plain:start_urls`;
      try {
        await w.redis.rpush(feedKey, ...Array.from({ length: 30 }, (_, i) => `https://example.com/f${i}`), '42');
        const c = await w.client('a', { startUrls: { key: feedKey, batchSize: 8 } });
        const got: string[] = [];
        for (;;) {
          const head = await c.listAndLockHead({ limit: 25, lockSecs: 60 });
          if (head.items.length === 0) break;
          got.push(...names(head.items));
        }
        expect(got.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `f${i}`).sort());
        expect(await w.redis.llen(feedKey)).toBe(0);
        expect((await w.admin().listDeadLetters()).map((l) => l.raw.toString())).toEqual(['42']);
      } finally {
        await w.redis.del(feedKey);
        for (const claimKey of claimKeysOf(w, feedKey)) await w.redis.del(claimKey);
      }
    });

    full('enqueue side: a request with a function, a BigInt or a circular reference is rejected and nothing is written', async () => {
      const w = fresh();
      const c = await w.client('a');
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      for (const userData of [{ f: () => 1 }, { n: 10n }, circular]) {
        await expect(c.batchAddRequests([req('ok'), req('bad', { userData })])).rejects.toBeInstanceOf(InvalidRequestError);
      }
      expect(await c.get()).toMatchObject({ totalRequestCount: 0 });
    });

    full('deleteRequest removes a request and moves the counters', async () => {
      const w = fresh();
      const c = await w.client('a');
      await c.batchAddRequests([req(1), req(2, { handledAt: new Date().toISOString() })]);
      await c.deleteRequest(expectedId('https://example.com/1'));
      if (handledRequests === 'bits') {
        // Bloom bits are shared: a handled request cannot be forgotten, and nothing changes.
        await expect(c.deleteRequest(expectedId('https://example.com/2'))).rejects.toThrow(UnsupportedOperationError);
        expect(await c.get()).toMatchObject({ totalRequestCount: 1, pendingRequestCount: 0, handledRequestCount: 1 });
        expect((await c.addRequest(req(2))).wasAlreadyHandled).toBe(true);
      } else {
        await c.deleteRequest(expectedId('https://example.com/2'));
        expect(await c.get()).toMatchObject({ totalRequestCount: 0, pendingRequestCount: 0, handledRequestCount: 0 });
        // Forgotten: the same uniqueKey is new again.
        expect((await c.addRequest(req(2))).wasAlreadyPresent).toBe(false);
      }
      expect(await c.getRequest(expectedId('https://example.com/1'))).toBeUndefined();
    });

    full('listHead lists unhandled requests in queue order, locked ones included', async () => {
      const w = fresh();
      const c = await w.client('a');
      await c.batchAddRequests([req(1), req(2), req(3)]);
      await c.listAndLockHead({ limit: 1, lockSecs: 60 });
      const head = await c.listHead({ limit: 2 });
      expect(names(head.items)).toEqual(['1', '2']);
    });
  });
}

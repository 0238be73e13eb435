// Admin operations that put requests back into a polite queue, on one real Redis with a movable Redis clock:
// requeued dead letters, requeued failed requests and a scrapy-redis takeover land in their host's queue (host from
// the URL with the workers' hostKey, as on the add path) and are then handed out only when the host's delay allows,
// on an unsharded and a sharded polite queue. A letter whose host cannot be known is refused with nothing written.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import { PolitenessMismatchError } from '../../src/errors/politeness-mismatch-error.js';
import { requestIdOf } from '../../src/core/request-codec.js';
import { shardOf } from '../../src/shard/shard-of.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';
import { hp, hreq, politeKeys } from './helpers.js';

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

const DELAY_SECS = 10;
const LOCK_SECS = 10;
/** Past a lock that was prolonged once from its expiry (Crawlee's rule: twice the lock time). */
const PAST_PROLONGED = 2 * LOCK_SECS * 1000 + 1;
const LOCK = { limit: 10, lockSecs: LOCK_SECS };
const id = (host: string, path: string | number) => requestIdOf(`http://${host}/${path}`);
const done = (host: string, path: string | number, extra: Record<string, unknown> = {}) => ({ ...hreq(host, path), id: id(host, path), handledAt: new Date().toISOString(), ...extra });

/** Everything the client can lock now (a sharded client answers from one shard per call: ask each). */
async function lockAll(client: RedisRequestQueueClient, calls = 1): Promise<{ got: string[]; waiting: boolean }> {
  const got: string[] = [];
  let waiting = false;
  for (let call = 0; call < calls; call++) {
    const head = await client.listAndLockHead(LOCK);
    got.push(...hp(head.items));
    waiting ||= head.queueHasLockedRequests === true;
  }
  return { got: got.sort(), waiting };
}

/** Makes request host/path a dead letter the worker's own way: started, its lock expired, `maxStalls: 1`. */
async function stallToDeath(client: RedisRequestQueueClient, host: string, path: string | number, calls: number): Promise<void> {
  expect((await lockAll(client, calls)).got).toContain(`${host}/${path}`);
  await client.prolongRequestLock(id(host, path), { lockSecs: LOCK_SECS });
  world.advance(PAST_PROLONGED);
  expect((await lockAll(client, calls)).got).not.toContain(`${host}/${path}`); // recovered, counted, dead-lettered
}

describe.each([
  ['an unsharded', 1],
  ['a sharded (4 shards)', 4],
])('requeueDeadLetters on %s polite queue', (_label, shards) => {
  it("puts a stalled request back into its host's queue; it is handed out only after the host's delay", async () => {
    world = createWorld(backend, 'polite-dead', { shards });
    const w = await world.client('w', { politeness: { minDelaySecs: DELAY_SECS }, maxStalls: 1 });
    await w.batchAddRequests([hreq('a.test', 1)]);
    await stallToDeath(w, 'a.test', 1, shards);
    const admin = world.admin();
    expect((await admin.listDeadLetters()).map((l) => l.id)).toEqual([id('a.test', 1)]);

    // The host's delay runs: a.test's next request is handed out and handled now, so a.test waits DELAY_SECS.
    world.advance(DELAY_SECS * 1000);
    await w.batchAddRequests([hreq('a.test', 2)]);
    expect((await lockAll(w, shards)).got).toEqual(['a.test/2']);
    await w.updateRequest(done('a.test', 2));

    expect(await admin.requeueDeadLetters()).toEqual({ requeued: 1, skipped: 0 });
    expect(await admin.stats()).toMatchObject({ pending: 1, locked: 0, deadLetters: 0 });
    const stats = await admin.politenessStats();
    expect(stats).toMatchObject({ hosts: 1, hostsWaiting: 1 });
    expect(stats.longestWaitSecs).toBeGreaterThan(DELAY_SECS - 1);
    // Not before the delay (and the queue stays open meanwhile, so no worker finishes), then at once.
    world.advance(DELAY_SECS * 1000 - 500);
    const early = await lockAll(w, shards);
    expect(early.got).toEqual([]);
    expect(early.waiting).toBe(true);
    world.advance(500);
    expect((await lockAll(w, shards)).got).toEqual(['a.test/1']);
  });
});

describe('requeueDeadLetters on a polite queue: repair, hostKey, refusals', () => {
  it('an unreadable letter is refused with nothing written; repaired, it goes to the host of its new URL', async () => {
    world = createWorld(backend, 'polite-repair');
    const w = await world.client('w', { politeness: { minDelaySecs: DELAY_SECS } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('b.test', 1)]);
    const keys = world.admin().keys;
    await world.redis.hset(keys.data, id('b.test', 1), 'J{"url":"http://b.test/1","uniqueKey":'); // cut off
    expect((await w.listAndLockHead(LOCK)).items.map((item) => item.url)).toEqual(['http://a.test/1']); // b.test/1 dead-lettered
    const admin = world.admin();
    expect(await admin.stats()).toMatchObject({ pending: 1, deadLetters: 1 });

    const refused = admin.requeueDeadLetters();
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(admin.requeueDeadLetters()).rejects.toThrow(/polite.*hold no readable request.*Pass repair/);
    expect(await admin.stats()).toMatchObject({ pending: 1, deadLetters: 1 }); // nothing written

    const result = await admin.requeueDeadLetters({ repair: () => ({ ...hreq('c.test', 'fixed') }) });
    expect(result).toEqual({ requeued: 1, skipped: 0 });
    expect(await world.redis.zrange(politeKeys(world).hq('c.test'), '0', '-1')).toEqual([id('c.test', 'fixed')]);
    expect(await world.redis.llen(keys.fifo)).toBe(0); // a polite queue keeps no FIFO list
    // The worker starts the request it holds, as Crawlee does before it asks again (a lock call right after a
    // hand-out, with the handed-out request not started, is answered locally: src/politeness/quiet-window.ts).
    await w.getRequest(id('a.test', 1));
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['c.test/fixed']);
  });

  it("the admin's hostKey (the workers' one) decides the host queue", async () => {
    world = createWorld(backend, 'polite-hostkey');
    // One host per registrable domain: x.a.test and y.a.test are one site.
    const hostKey = (url: string) => new URL(url).hostname.split('.').slice(-2).join('.');
    const w = await world.client('w', { politeness: { minDelaySecs: DELAY_SECS, hostKey }, maxStalls: 1 });
    await w.batchAddRequests([hreq('x.a.test', 1)]);
    await stallToDeath(w, 'x.a.test', 1, 1);
    world.advance(DELAY_SECS * 1000);
    await w.batchAddRequests([hreq('y.a.test', 1)]);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['y.a.test/1']);
    const admin = new RedisQueueAdmin({ redis: world.redis, keyPrefix: world.keyPrefix, name: world.name, hostKey });
    expect(await admin.requeueDeadLetters()).toEqual({ requeued: 1, skipped: 0 });
    expect(await world.redis.zrange(politeKeys(world).hq('a.test'), '0', '-1')).toEqual([id('x.a.test', 1)]);
    // y.a.test/1 holds the site's one slot: x.a.test/1 waits for it, then for the delay.
    world.advance(DELAY_SECS * 1000);
    expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
    await w.updateRequest(done('y.a.test', 1));
    world.advance(DELAY_SECS * 1000 - 500);
    expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
    world.advance(500);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['x.a.test/1']);
  });

  it('the script refuses a requeue without hosts on a polite queue (a client of an older version)', async () => {
    world = createWorld(backend, 'polite-oldcall');
    const w = await world.client('w', { politeness: {}, maxStalls: 1 });
    await w.batchAddRequests([hreq('a.test', 1)]);
    await stallToDeath(w, 'a.test', 1, 1);
    const admin = world.admin();
    const scripts = (admin as unknown as { scripts: { run(name: string, args: string[], o: object): Promise<unknown> } }).scripts;
    const call = scripts.run('requeueDeadLetter', [id('a.test', 1), id('a.test', 1), '', '0'], { extraKeys: [admin.keys.stalls] });
    await expect(call).rejects.toBeInstanceOf(PolitenessMismatchError);
    expect(await admin.stats()).toMatchObject({ pending: 0, deadLetters: 1 });
  });
});

describe('requeueFailed on a polite queue', () => {
  it("puts a failed request back into its host's queue; handed out only after the host's delay, retryCount 0", async () => {
    world = createWorld(backend, 'polite-failed');
    const w = await world.client('w', { politeness: { minDelaySecs: DELAY_SECS } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
    // Crawlee marks a request handled from its error handler after its last retry: failed for good.
    await w.updateRequest(done('a.test', 1, { retryCount: 3, userData: { __crawlee: { state: 6 } }, errorMessages: ['boom'] }));
    world.advance(DELAY_SECS * 1000);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/2']);
    await w.updateRequest(done('a.test', 2));
    const admin = world.admin();
    expect(await admin.failedCount()).toBe(1);

    expect(await admin.requeueFailed()).toEqual({ requeued: 1, alreadyQueued: 0, skipped: 0, missing: 0 });
    expect(await admin.stats()).toMatchObject({ total: 2, pending: 1, handled: 1 });
    expect(await world.redis.zrange(politeKeys(world).hq('a.test'), '0', '-1')).toEqual([id('a.test', 1)]);
    world.advance(DELAY_SECS * 1000 - 500);
    expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
    world.advance(500);
    const [item] = (await w.listAndLockHead(LOCK)).items;
    expect(item).toMatchObject({ url: 'http://a.test/1' });
    expect((await w.getRequest(id('a.test', 1)))?.retryCount).toBe(0);
  });

  it('a hostKey that fails for a request stops its page before anything is written', async () => {
    world = createWorld(backend, 'polite-failed-key');
    const w = await world.client('w', { politeness: {} });
    await w.batchAddRequests([hreq('a.test', 1)]);
    await w.listAndLockHead(LOCK);
    await w.updateRequest(done('a.test', 1, { userData: { __crawlee: { state: 6 } } }));
    const admin = new RedisQueueAdmin({ redis: world.redis, keyPrefix: world.keyPrefix, name: world.name, hostKey: () => '' });
    await expect(admin.requeueFailed()).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await admin.failedCount()).toBe(1);
    expect(await admin.stats()).toMatchObject({ pending: 0, handled: 1 });
  });
});

/** One scrapy-redis frontier entry as `PriorityQueue.push` writes it with a JSON `SCHEDULER_SERIALIZER`:
 * `json.dumps(request.to_dict())` (Scrapy 2.6+ field names), scored -priority. @param url - the request URL */
function scrapyJsonEntry(url: string): string {
  return JSON.stringify({
    url, callback: null, errback: null, headers: {}, method: 'GET', body: '', cookies: {}, meta: {},
    encoding: 'utf-8', priority: 0, dont_filter: false, flags: [], cb_kwargs: {},
  });
}

describe('takeOverScrapyRequests into a polite queue', () => {
  it("each request lands in its host's queue: one per host at a time, the next only after the delay", async () => {
    world = createWorld(backend, 'polite-takeover');
    const key = `${world.keyPrefix}-spider:requests`;
    const urls = ['http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://b.test/2'];
    await world.redis.zadd(key, ...urls.flatMap((url) => [0, scrapyJsonEntry(url)]));
    try {
      const w = await world.client('w', { politeness: { minDelaySecs: DELAY_SECS } });
      const result = await world.admin().takeOverScrapyRequests({ key, serializer: 'json', batchSize: 3 });
      expect(result).toMatchObject({ moved: 4, deadLettered: 0 });
      expect(await world.redis.zcard(politeKeys(world).hq('a.test'))).toBe(2);
      expect(await world.redis.zcard(politeKeys(world).hq('b.test'))).toBe(2);
      expect(await world.redis.llen(world.admin().keys.fifo)).toBe(0);
      const first = hp((await w.listAndLockHead(LOCK)).items).sort();
      expect(first.map((u) => u.split('/')[0])).toEqual(['a.test', 'b.test']);
      for (const u of first) await w.updateRequest(done(u.split('/')[0]!, u.split('/')[1]!));
      world.advance(DELAY_SECS * 1000 - 500);
      expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
      world.advance(500);
      expect(hp((await w.listAndLockHead(LOCK)).items).map((u) => u.split('/')[0]).sort()).toEqual(['a.test', 'b.test']);
    } finally {
      await world.redis.del(key);
    }
  });
});

describe('requeueDeadLetters on a sharded polite queue: shards', () => {
  it('a repair that moves the request to another shard is refused before anything is requeued', async () => {
    world = createWorld(backend, 'polite-shard-repair', { shards: 4 });
    const w = await world.client('w', { politeness: { minDelaySecs: DELAY_SECS }, maxStalls: 1 });
    await w.batchAddRequests([hreq('a.test', 1)]);
    await stallToDeath(w, 'a.test', 1, 4);
    const home = shardOf('http://a.test/1', 4, 'host');
    const away = ['b.test', 'c.test', 'd.test', 'e.test', 'f.test', 'g.test'].find((h) => shardOf(`http://${h}/1`, 4, 'host') !== home)!;
    const admin = world.admin();
    await expect(admin.requeueDeadLetters({ repair: () => ({ ...hreq(away, 1) }) })).rejects.toThrow(/belongs in another shard/);
    expect(await admin.stats()).toMatchObject({ pending: 0, deadLetters: 1 });
    // Repaired within its host (same shard): requeued, and handed out from that shard.
    expect(await admin.requeueDeadLetters({ repair: () => ({ ...hreq('a.test', 'fixed') }) })).toEqual({ requeued: 1, skipped: 0 });
    world.advance(DELAY_SECS * 1000);
    expect((await lockAll(w, 4)).got).toEqual(['a.test/fixed']);
  });
});

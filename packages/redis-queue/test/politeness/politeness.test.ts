// Fleet-wide politeness on one real Redis with a movable Redis clock (the scripts' TIME plus the world's offset):
// per-host delay counted from the later of hand-out and end, per-host concurrency, no head-of-line blocking,
// forefront/FIFO within a host, backOffHost, retry not-before, recovery of an expired lock's host slot.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
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

const LOCK = { limit: 10, lockSecs: 60 };
const id = (host: string, path: string | number) => requestIdOf(`http://${host}/${path}`);
const handled = (host: string, path: string | number) => ({ ...hreq(host, path), id: id(host, path), handledAt: new Date().toISOString() });

describe('politeness: minDelaySecs', () => {
  it('hands out one request per host per minDelay, and the queue stays open while hosts wait', async () => {
    world = createWorld(backend, 'polite-delay');
    const w = await world.client('w', { politeness: { minDelaySecs: 10 } });
    await w.batchAddRequests(['a.test', 'b.test', 'c.test'].flatMap((h) => [1, 2].map((n) => hreq(h, n))));
    const first = await w.listAndLockHead(LOCK);
    expect(hp(first.items).sort()).toEqual(['a.test/1', 'b.test/1', 'c.test/1']);
    for (const item of first.items) await w.updateRequest({ ...item, handledAt: new Date().toISOString() });
    // Margins of 0.5 s: real time passes between the steps too (the clock is Redis TIME plus the offset).
    world.advance(9500);
    const none = await w.listAndLockHead(LOCK);
    expect(none.items).toEqual([]);
    expect(none.queueHasLockedRequests).toBe(true); // hosts wait with available requests: no worker may finish
    world.advance(500);
    expect(hp((await w.listAndLockHead(LOCK)).items).sort()).toEqual(['a.test/2', 'b.test/2', 'c.test/2']);
  });

  it('counts the delay from the end of the previous request when it ends after the hand-out', async () => {
    world = createWorld(backend, 'polite-end');
    const w = await world.client('w', { politeness: { minDelaySecs: 10 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
    world.advance(8000); // the request takes 8 s at the site
    await w.updateRequest(handled('a.test', 1));
    world.advance(9500); // 17.5 s after the hand-out, 9.5 s after the end
    expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
    world.advance(500);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/2']);
  });
});

describe('politeness: maxConcurrencyPerHost', () => {
  it('never locks more than maxConcurrencyPerHost requests of one host; a handled one frees a slot', async () => {
    world = createWorld(backend, 'polite-conc');
    const w = await world.client('w', { politeness: { maxConcurrencyPerHost: 2 } });
    await w.batchAddRequests([1, 2, 3, 4, 5].map((n) => hreq('a.test', n)));
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1', 'a.test/2']);
    expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
    await w.updateRequest(handled('a.test', 1));
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/3']);
    expect((await w.politenessStats()).inFlight).toEqual({ 'a.test': 2 });
  });
});

describe('politeness: no head-of-line blocking, order within a host', () => {
  it('a waiting host does not stop other hosts, whatever it holds', async () => {
    world = createWorld(backend, 'polite-hol');
    const w = await world.client('w', { politeness: { minDelaySecs: 60 } });
    await w.batchAddRequests(Array.from({ length: 500 }, (_, n) => hreq('slow.test', n)));
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['slow.test/0']);
    await w.batchAddRequests([hreq('b.test', 1), hreq('c.test', 1)]);
    expect(hp((await w.listAndLockHead(LOCK)).items).sort()).toEqual(['b.test/1', 'c.test/1']);
  });

  it('forefront newest first, then FIFO, within a host', async () => {
    world = createWorld(backend, 'polite-order');
    const w = await world.client('w', { politeness: { maxConcurrencyPerHost: 1 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('a.test', 3)]);
    await w.batchAddRequests([hreq('a.test', 4)], { forefront: true });
    await w.batchAddRequests([hreq('a.test', 5)], { forefront: true });
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { items } = await w.listAndLockHead(LOCK);
      expect(items).toHaveLength(1);
      order.push(...hp(items));
      await w.updateRequest({ ...items[0]!, handledAt: new Date().toISOString() });
    }
    expect(order).toEqual(['a.test/5', 'a.test/4', 'a.test/1', 'a.test/2', 'a.test/3']);
  });
});

describe('politeness: backOffHost and retry backoff', () => {
  it('backOffHost stops only that host, for the whole fleet, until the time has passed', async () => {
    world = createWorld(backend, 'polite-backoff');
    const w1 = await world.client('w1', { politeness: { minDelaySecs: 0 } });
    const w2 = await world.client('w2', { politeness: { minDelaySecs: 0 } });
    await w1.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('b.test', 1), hreq('b.test', 2)]);
    await w1.backOffHost(w1.hostKeyOf('http://a.test/x'), 20);
    expect(hp((await w2.listAndLockHead(LOCK)).items)).toEqual(['b.test/1', 'b.test/2']);
    world.advance(19_500);
    expect((await w2.listAndLockHead(LOCK)).items).toEqual([]);
    const stats = await w1.politenessStats();
    expect(stats).toMatchObject({ hosts: 1, hostsWaiting: 1 });
    expect(stats.longestWaitSecs).toBeGreaterThan(0);
    expect(stats.longestWaitSecs).toBeLessThanOrEqual(0.5);
    world.advance(500);
    expect(hp((await w2.listAndLockHead(LOCK)).items)).toEqual(['a.test/1', 'a.test/2']);
  });

  it('a reclaimed (retried) request waits for its not-before time; the queue stays open meanwhile', async () => {
    world = createWorld(backend, 'polite-retry');
    const w = await world.client('w', { politeness: { retryBackoff: { baseSecs: 2, factor: 3 } } });
    await w.batchAddRequests([hreq('a.test', 1)]);
    const { items } = await w.listAndLockHead(LOCK);
    await w.updateRequest({ ...hreq('a.test', 1), id: items[0]!.id, retryCount: 2 }); // 2 * 3^(2-1) = 6 s
    world.advance(5500);
    const waiting = await w.listAndLockHead(LOCK);
    expect(waiting.items).toEqual([]);
    expect(waiting.queueHasLockedRequests).toBe(true);
    expect((await w.politenessStats()).delayed).toBe(1);
    world.advance(500);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
  });

  it('retryBackoff: false makes a reclaimed request available at once', async () => {
    world = createWorld(backend, 'polite-noretry');
    const w = await world.client('w', { politeness: { retryBackoff: false } });
    await w.batchAddRequests([hreq('a.test', 1)]);
    const { items } = await w.listAndLockHead(LOCK);
    await w.updateRequest({ ...hreq('a.test', 1), id: items[0]!.id, retryCount: 3 });
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
  });
});

describe('politeness: locks that end without a handled mark', () => {
  it('an expired lock (killed worker) frees its host slot and the request comes back', async () => {
    world = createWorld(backend, 'polite-expired');
    const dead = await world.client('dead', { politeness: { maxConcurrencyPerHost: 1 } });
    const alive = await world.client('alive', { politeness: { maxConcurrencyPerHost: 1 } });
    await dead.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    expect(hp((await dead.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
    expect((await alive.listAndLockHead(LOCK)).items).toEqual([]); // the slot is taken
    world.advance(60_001);
    expect(hp((await alive.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
    expect((await alive.politenessStats()).inFlight).toEqual({ 'a.test': 1 });
  });

  it('deleteRequestLock and releaseLocks free the host slot', async () => {
    world = createWorld(backend, 'polite-release');
    const w = await world.client('w', { politeness: { maxConcurrencyPerHost: 1 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('b.test', 1)]);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1', 'b.test/1']);
    await w.deleteRequestLock(id('a.test', 1));
    expect(await w.releaseLocks()).toBe(1);
    expect((await w.politenessStats()).inFlight).toEqual({});
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1', 'b.test/1']);
  });

  it('a request handled while available leaves its host queue, and purge removes every politeness key', async () => {
    world = createWorld(backend, 'polite-purge');
    const w = await world.client('w', { politeness: { minDelaySecs: 5 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('b.test', 1)]);
    await w.updateRequest(handled('a.test', 2));
    expect(await world.redis.zcard(politeKeys(world).hq('a.test'))).toBe(1);
    await w.listAndLockHead(LOCK);
    await world.admin().purge();
    const keys = politeKeys(world);
    expect(await world.redis.exists(keys.hosts, keys.next, keys.flight, keys.hostOf, keys.delayed, keys.hq('a.test'), keys.hq('b.test'))).toBe(0);
  });
});

describe('politeness: requests that leave the queue while locked', () => {
  it('a request that stalls maxStalls times is dead-lettered and its host slot is freed', async () => {
    world = createWorld(backend, 'polite-stalls');
    const w = await world.client('w', { maxStalls: 2, politeness: { maxConcurrencyPerHost: 1 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2)]);
    for (let round = 0; round < 2; round++) {
      const { items } = await w.listAndLockHead({ limit: 1, lockSecs: 10 });
      expect(hp(items)).toEqual(['a.test/1']);
      await w.prolongRequestLock(items[0]!.id, { lockSecs: 10 }); // started
      world.advance(20_001);
    }
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/2']);
    expect(await world.admin().listDeadLetters()).toMatchObject([{ id: id('a.test', 1), stalls: 2 }]);
    expect((await w.politenessStats()).inFlight).toEqual({ 'a.test': 1 });
  });

  it('deleteRequest and dead-lettering of a locked request free the host slot', async () => {
    world = createWorld(backend, 'polite-delete');
    const w = await world.client('w', { politeness: { maxConcurrencyPerHost: 1 } });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('a.test', 3), hreq('b.test', 1), hreq('b.test', 2)]);
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1', 'b.test/1']);
    await w.deleteRequest(id('a.test', 1));
    // b.test/1's data becomes unreadable while it is locked: getRequest dead-letters it.
    await world.redis.hset(world.admin().keys.data, id('b.test', 1), '{"url":');
    const fresh = await world.client('w2', { politeness: { maxConcurrencyPerHost: 1 } });
    expect(await fresh.getRequest(id('b.test', 1))).toBeUndefined();
    expect((await w.politenessStats()).inFlight).toEqual({});
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/2', 'b.test/2']);
  });
});

describe('politeness: other ways in and out', () => {
  it('start-URL feed items go to their hosts\' queues (unreadable ones to the dead letters)', async () => {
    world = createWorld(backend, 'polite-feed');
    const feedKey = `${world.keyPrefix}-feed`;
    await world.redis.rpush(feedKey, 'http://a.test/1', 'http://a.test/2', 'not a url', 'http://b.test/1');
    const w = await world.client('w', { politeness: { minDelaySecs: 60 }, startUrls: { key: feedKey, format: 'crawlee' } });
    expect(hp((await w.listAndLockHead(LOCK)).items).sort()).toEqual(['a.test/1', 'b.test/1']);
    expect((await w.listAndLockHead(LOCK)).items).toEqual([]);
    expect(await world.redis.zcard(politeKeys(world).hq('a.test'))).toBe(1);
    expect(await world.admin().listDeadLetters()).toHaveLength(1);
    await world.redis.del(feedKey);
  });

  it('a prolong with forefront moves the request to the head of its host for when its lock expires', async () => {
    world = createWorld(backend, 'polite-prolong-ff');
    const w = await world.client('w', { politeness: { maxConcurrencyPerHost: 2 }, maxStalls: 0 });
    await w.batchAddRequests([hreq('a.test', 1), hreq('a.test', 2), hreq('a.test', 3)]);
    const { items } = await w.listAndLockHead(LOCK);
    expect(hp(items)).toEqual(['a.test/1', 'a.test/2']);
    await w.prolongRequestLock(items[1]!.id, { lockSecs: 10, forefront: true });
    world.advance(100_000); // both locks expire and return: a.test/2 now at the head, then a.test/1
    expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/2', 'a.test/1']);
  });
});

it('a feed item whose host key fails becomes a dead letter and the feed goes on', async () => {
  world = createWorld(backend, 'polite-feed-hostkey');
  const feedKey = `${world.keyPrefix}-feed`;
  await world.redis.rpush(feedKey, 'http://bad.test/1', 'http://a.test/1');
  const hostKey = (url: string) => (url.includes('bad') ? '' : new URL(url).hostname);
  const w = await world.client('w', { politeness: { hostKey }, startUrls: { key: feedKey, format: 'crawlee' } });
  expect(hp((await w.listAndLockHead(LOCK)).items)).toEqual(['a.test/1']);
  const letters = await world.admin().listDeadLetters();
  expect(letters).toHaveLength(1);
  expect(letters[0]!.reason).toMatch(/hostKey must return a non-empty string/);
  expect(await world.redis.llen(feedKey)).toBe(0);
});

// The start-URL feed and the scrapy-redis takeover on a sharded queue (shards: 4) on one standalone Redis: each item
// lands in the shard of its uniqueKey through that shard's add script; the hand-over goes through a claim in the
// feed's slot, which the next worker replays when the claiming worker died before adding it (nothing lost, nothing
// enqueued twice); a worker does not finish while another worker's claimed batch is on its way.
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { StartUrlFeedTypeError } from '../../src/errors/start-url-feed-type-error.js';
import { claimFeedBatch, feedClaimKeys } from '../../src/feed/feed-claims.js';
import { ConnectionHandle } from '../../src/core/connection.js';
import { queueKeys } from '../../src/core/keys.js';
import { runScriptBuffer } from '../../src/core/scripts.js';
import { shardQueueKeys } from '../../src/shard/shard-keys.js';
import { shardOf } from '../../src/shard/shard-of.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

const S = 4;
const url = (i: number) => `https://h${i % 10}.example/p${i}`;

let backend: TestBackend;
let world: QueueWorld | undefined;
let extraKeys: string[] = [];
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(() => backend.stop());
afterEach(async () => {
  if (world) {
    if (extraKeys.length) await world.redis.del(...extraKeys);
    await world.cleanup();
  }
  world = undefined;
  extraKeys = [];
});

/** A fresh sharded world with a feed key (and its claim keys, cleaned up after the test). */
function feedWorld(shards = S): { w: QueueWorld; feedKey: string; claims: ReturnType<typeof feedClaimKeys> } {
  const w = (world = createWorld(backend, 'feedq', { shards }));
  const feedKey = `${w.keyPrefix}:feedq:start_urls`;
  const claims = feedClaimKeys(feedKey, queueKeys(w.keyPrefix, w.name).tag);
  extraKeys = [feedKey, claims.claims, claims.claimed];
  return { w, feedKey, claims };
}

/** Locks and marks handled until the client sees a finished queue; @returns the urls it handled. */
async function consume(c: RedisRequestQueueClient, lockSecs = 60): Promise<string[]> {
  const got: string[] = [];
  for (let polls = 0; polls < 2000; polls++) {
    const head = await c.listAndLockHead({ limit: 7, lockSecs });
    if (head.items.length === 0) {
      if (!head.queueHasLockedRequests) return got;
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    for (const item of head.items) {
      got.push(item.url);
      await c.updateRequest({ url: item.url, uniqueKey: item.uniqueKey, id: item.id, handledAt: new Date().toISOString() });
    }
  }
  throw new Error('consumer did not finish');
}

async function shardTotals(w: QueueWorld, shards = S): Promise<number[]> {
  return Promise.all(Array.from({ length: shards }, async (_, s) => Number((await w.redis.hget(shardQueueKeys(w.keyPrefix, w.name, s, shards).meta, 'total')) ?? 0)));
}

describe(`start-URL feed into a sharded queue (shards: ${S}, standalone)`, () => {
  it('3 consumers: every item handled exactly once, each in the shard of its uniqueKey; bad items dead-lettered once; no claim left', async () => {
    const { w, feedKey, claims } = feedWorld();
    const urls = Array.from({ length: 300 }, (_, i) => url(i));
    await w.redis.rpush(feedKey, ...urls, 'not a url', '{"meta":{}}');
    const clients = await Promise.all([0, 1, 2].map((i) => w.client(`w${i}`, { startUrls: { key: feedKey, batchSize: 25 } })));
    const got = (await Promise.all(clients.map((c) => consume(c)))).flat();
    expect(got).toHaveLength(300);
    expect(new Set(got)).toEqual(new Set(urls));
    const expected = Array.from({ length: S }, () => 0);
    for (const u of urls) expected[shardOf(u, S, 'host')]!++;
    expect(await shardTotals(w)).toEqual(expected);
    expect(expected.every((n) => n > 0)).toBe(true);
    expect(await w.admin().stats()).toMatchObject({ total: 300, handled: 300, pending: 0, locked: 0, deadLetters: 2 });
    expect((await w.admin().listDeadLetters()).every((l) => l.source === 'feed' && l.reason.length > 0)).toBe(true);
    expect(await w.redis.exists(feedKey, claims.claims)).toBe(0);
    expect(await w.redis.hlen(claims.claimed)).toBe(1); // only the commits counter
  });

  it('set and sorted-set feeds (scrapy-redis REDIS_START_URLS_AS_SET / _AS_ZSET) drain into the shards once', async () => {
    for (const type of ['set', 'zset'] as const) {
      const { w, feedKey } = feedWorld();
      const urls = Array.from({ length: 60 }, (_, i) => url(i));
      if (type === 'set') await w.redis.sadd(feedKey, ...urls);
      else await w.redis.zadd(feedKey, ...urls.flatMap((u, i) => [i, u]));
      const clients = await Promise.all([0, 1].map((i) => w.client(`w${i}`, { startUrls: { key: feedKey, type, batchSize: 8 } })));
      const got = (await Promise.all(clients.map((c) => consume(c)))).flat();
      expect(got.sort()).toEqual([...urls].sort());
      await w.redis.del(...extraKeys);
      await w.cleanup();
      world = undefined;
    }
  });

  it('a worker that died after its claim: the batch comes back after the lock time and is added once; a second replay adds nothing', async () => {
    const { w, feedKey, claims } = feedWorld();
    const urls = Array.from({ length: 40 }, (_, i) => url(i));
    await w.redis.rpush(feedKey, ...urls.slice(0, 5), 'garbage item', ...urls.slice(5));
    // What a worker does before it dies: claim a batch (items 0-4, the garbage, 5-28), add part of it, then nothing.
    const connection = new ConnectionHandle(w.redis);
    const dead = await claimFeedBatch(connection, feedKey, claims, 'list', 30, 5_000, '0');
    if (dead.kind !== 'claim') throw new Error('no claim');
    expect(dead.replay).toBe(false);
    expect(await w.redis.llen(feedKey)).toBe(11);
    await (await w.client('dead')).batchAddRequests(urls.slice(0, 10).map((u) => ({ url: u, uniqueKey: u })));

    const survivor = await w.client('survivor', { startUrls: { key: feedKey, batchSize: 30 } });
    const first = await untilIdle(survivor);
    // Took what was available and the rest of the feed; the dead worker's claim is live, so it must not finish.
    expect(first.got.sort()).toEqual([...urls.slice(0, 10), ...urls.slice(29)].sort());
    expect(first.queueHasLockedRequests).toBe(true);
    w.advance(6_000); // past the claim's lease (Redis time)
    const second = await untilIdle(survivor);
    expect(second.got.sort()).toEqual(urls.slice(10, 29).sort());
    expect(second.queueHasLockedRequests).toBe(false);
    expect(await w.redis.zcard(claims.claims)).toBe(0);
    const stats = { total: 40, handled: 40, pending: 0, deadLetters: 1 };
    expect(await w.admin().stats()).toMatchObject(stats);
    const [letter] = await w.admin().listDeadLetters();
    expect(letter).toMatchObject({ id: `feed-${dead.id}.5`, raw: Buffer.from('garbage item') });

    // The same claim once more, as if a stalled worker's lease ran out after the survivor had committed it: the
    // replay finds every request handled and the dead letter written; nothing changes.
    await w.redis.hset(claims.claimed, `${dead.id}:n`, String(dead.raws.length), ...dead.raws.flatMap((raw, i) => [`${dead.id}:${i}`, raw!]));
    await w.redis.zadd(claims.claims, 0, dead.id);
    const third = await untilIdle(survivor);
    expect(third).toEqual({ got: [], queueHasLockedRequests: false });
    expect(await w.redis.zcard(claims.claims)).toBe(0);
    expect(await w.admin().stats()).toMatchObject(stats);
  });

  it('a claim call run twice with one id (the connection retried it after a lost reply) returns the same batch, not a second one over it', async () => {
    const { w, feedKey, claims } = feedWorld();
    await w.redis.rpush(feedKey, url(1), url(2), url(3), url(4));
    const call = () => runScriptBuffer(w.redis, 'claimFeedBatch', [feedKey, claims.claims, claims.claimed], ['list', 2, 60_000, '0', 'same-id']) as Promise<Buffer[]>;
    const first = await call();
    const again = await call();
    expect(again.slice(1).map(String)).toEqual(first.slice(1).map(String));
    expect(first.slice(2).map(String)).toEqual([url(1), url(2)]);
    expect(await w.redis.lrange(feedKey, 0, -1)).toEqual([url(3), url(4)]);
  });

  it('alwaysEnqueue: a replayed claim gives each item the same uniqueKey again (enqueued once per feed item)', async () => {
    const { w, feedKey, claims } = feedWorld();
    await w.redis.rpush(feedKey, url(1), url(1), url(2));
    const dead = await claimFeedBatch(new ConnectionHandle(w.redis), feedKey, claims, 'list', 10, 1_000, '0');
    if (dead.kind !== 'claim') throw new Error('no claim');
    const c = await w.client('c', { startUrls: { key: feedKey, alwaysEnqueue: true } });
    w.advance(2_000);
    expect((await untilIdle(c)).got.sort()).toEqual([url(1), url(1), url(2)]);
    await w.redis.hset(claims.claimed, `${dead.id}:n`, '3', ...dead.raws.flatMap((raw, i) => [`${dead.id}:${i}`, raw!]));
    await w.redis.zadd(claims.claims, 0, dead.id);
    expect(await untilIdle(c)).toEqual({ got: [], queueHasLockedRequests: false });
    expect(await w.admin().stats()).toMatchObject({ total: 3, handled: 3 });
  });

  it('a feed key of another type: a typed error on open; changed later, it is skipped with a warning and the queue keeps working', async () => {
    const { w, feedKey } = feedWorld();
    await w.redis.hset(feedKey, 'a', '1');
    await expect(w.client('a', { startUrls: { key: feedKey } })).rejects.toBeInstanceOf(StartUrlFeedTypeError);
    await w.redis.del(feedKey);
    const c = await w.client('b', { startUrls: { key: feedKey } });
    await c.addRequest({ url: url(1), uniqueKey: url(1) });
    await w.redis.set(feedKey, 'x');
    expect((await untilIdle(c)).got).toEqual([url(1)]);
    expect(await w.redis.get(feedKey)).toBe('x');
  });

  it('a polite sharded queue: feed items go to their host\'s shard with its politeness state; a uniqueKey of another host is a dead letter', async () => {
    const w = (world = createWorld(backend, 'feedp', { shards: S, politeness: { minDelaySecs: 0, maxConcurrencyPerHost: 1 } }));
    const feedKey = `${w.keyPrefix}:feedp:start_urls`;
    const claims = feedClaimKeys(feedKey, queueKeys(w.keyPrefix, w.name).tag);
    extraKeys = [feedKey, claims.claims, claims.claimed];
    const urls = Array.from({ length: 20 }, (_, i) => url(i));
    await w.redis.rpush(feedKey, ...urls, JSON.stringify({ url: url(99), uniqueKey: 'https://other.example/x' }));
    const c = await w.client('c', { startUrls: { key: feedKey, format: 'crawlee' } });
    const first = await c.listAndLockHead({ limit: 50, lockSecs: 60 }); // drains the feed: one request per host at a time
    expect(first.items).toHaveLength(new Set(first.items.map((i) => new URL(i.url).hostname)).size);
    expect((await c.politenessStats()).hosts).toBe(10);
    for (const item of first.items) await c.updateRequest({ url: item.url, uniqueKey: item.uniqueKey, id: item.id, handledAt: new Date().toISOString() });
    const rest = await untilIdle(c);
    expect([...first.items.map((i) => i.url), ...rest.got].sort()).toEqual([...urls].sort());
    const letters = await w.admin().listDeadLetters();
    expect(letters).toHaveLength(1);
    expect(letters[0]!.reason).toMatch(/uniqueKey must be a URL of the request's own host/);
  });
});

// The real scrapy-redis queue classes (vendored scrapy_redis/queue.py) write the frontier.
const PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';
const SCRAPY_REDIS_SRC = process.env['SCRAPY_REDIS_SRC'] ?? new URL('../../../../../shared/vendor/scrapy-redis/src', import.meta.url).pathname;
const PUSH = String.raw`
import json, sys, redis
from scrapy import Request, Spider
from scrapy_redis import queue
redis_url, key, cls, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
q = getattr(queue, cls)(redis.Redis.from_url(redis_url), Spider(name='s'), key)
for i in range(n):
    q.push(Request('https://h%d.example/p%d' % (i % 10, i), priority=i % 7))
`;

/** Pushes n requests with the real scrapy-redis queue class. */
export function scrapyPush(redisUrl: string, key: string, cls: string, n: number): void {
  const r = spawnSync(PYTHON, ['-c', PUSH, redisUrl, key, cls, String(n)], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: SCRAPY_REDIS_SRC } });
  if (r.status !== 0) throw new Error(`scrapy-redis push failed (needs python3-scrapy, python3-redis, vendored scrapy-redis): ${r.stderr}`);
}

describe(`takeover of a scrapy-redis frontier into a sharded queue (shards: ${S}, standalone)`, () => {
  it('moves every request once, each into the shard of its uniqueKey in Scrapy\'s pop order; a re-run after a crash between the steps stores nothing twice', async () => {
    const w = (world = createWorld(backend, 'takeq', { shards: S }));
    const key = `${w.keyPrefix}-s:requests`;
    extraKeys = [key];
    await (await w.client('creator')).get(); // the queue exists, sharded
    scrapyPush(inject('redisUrl'), key, 'PriorityQueue', 200);
    await w.redis.zadd(key, -100, 'not a pickle');
    const copy = await w.redis.zrangeBuffer(key, '0', '-1', 'WITHSCORES');
    const admin = w.admin();
    const moved = await admin.takeOverScrapyRequests({ key, batchSize: 40 });
    expect(moved).toEqual({ moved: 200, alreadyPresent: 0, deadLettered: 1, gone: 0, batches: 6 });
    expect(await w.redis.exists(key)).toBe(0);
    const expected = Array.from({ length: S }, () => 0);
    for (let i = 0; i < 200; i++) expected[shardOf(`https://h${i % 10}.example/p${i}`, S, 'host')]!++;
    expect(await shardTotals(w)).toEqual(expected);
    // Within each shard: Scrapy's pop order (highest priority first). listHead gives shard after shard, each in order.
    const head = await (await w.client('reader')).listHead({ limit: 500 });
    expect(head.items).toHaveLength(200);
    for (let s = 0; s < S; s++) {
      const priorities = head.items.filter((item) => shardOf(item.url, S, 'host') === s).map((item) => Number(/p(\d+)$/.exec(item.url)![1]) % 7);
      expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    }
    // Killed after the shards stored a batch but before it left Scrapy's key: the entries are back; a re-run only removes them.
    const pairs = copy.map((b, i) => (i % 2 === 1 ? b.toString() : b));
    const args: Array<string | Buffer> = [];
    for (let i = 0; i < pairs.length; i += 2) args.push(pairs[i + 1] as string, pairs[i] as Buffer);
    await w.redis.zadd(key, ...(args as [string, Buffer]));
    expect(await admin.takeOverScrapyRequests({ key, batchSize: 40 })).toMatchObject({ moved: 0, alreadyPresent: 200, deadLettered: 1 });
    expect(await w.redis.exists(key)).toBe(0);
    expect(await admin.stats()).toMatchObject({ total: 200, pending: 200, deadLetters: 1 });
    const got = (await consume(await w.client('worker'))).sort();
    expect(new Set(got).size).toBe(200);
  });
});

/** Locks and handles until nothing is available. @returns what it handled and the last call's flag */
async function untilIdle(c: RedisRequestQueueClient): Promise<{ got: string[]; queueHasLockedRequests: boolean }> {
  const got: string[] = [];
  for (;;) {
    const head = await c.listAndLockHead({ limit: 50, lockSecs: 60 });
    if (head.items.length === 0) return { got, queueHasLockedRequests: head.queueHasLockedRequests === true };
    for (const item of head.items) {
      got.push(item.url);
      await c.updateRequest({ url: item.url, uniqueKey: item.uniqueKey, id: item.id, handledAt: new Date().toISOString() });
    }
  }
}

import { CheerioCrawler, Configuration, log } from 'crawlee';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { StartUrlFeedTypeError } from '../../src/errors/start-url-feed-type-error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, type QueueWorld } from '../helpers/world.js';

// The start-URL feed in every scrapy-redis layout (list, set, sorted set, several keys in priority order), wrong-type
// keys as typed errors, and maxIdleSecs (MAX_IDLE_TIME_BEFORE_CLOSE) keeping a crawler alive for a late item.
let backend: TestBackend;
let world: QueueWorld;
const feedKeys: string[] = [];
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  if (feedKeys.length) await world.redis.del(...feedKeys.splice(0));
  await world.cleanup();
});
const feedKey = (suffix: string) => {
  const key = `${world.keyPrefix}-${suffix}`;
  feedKeys.push(key);
  return key;
};
const url = (n: number | string) => `https://example.com/${n}`;

async function drainAll(client: Awaited<ReturnType<QueueWorld['client']>>, limit = 7): Promise<string[]> {
  const got: string[] = [];
  for (;;) {
    const head = await client.listAndLockHead({ limit, lockSecs: 60 });
    if (head.items.length === 0) return got;
    got.push(...names(head.items));
  }
}

describe('start-URL feed layouts', () => {
  it('a set feed (REDIS_START_URLS_AS_SET): 5 concurrent workers enqueue every member exactly once, the set ends empty', async () => {
    world = createWorld(backend, `feed-set-${Date.now()}`);
    const key = feedKey('set');
    await world.redis.sadd(key, ...Array.from({ length: 300 }, (_, i) => url(i)));
    const clients = await Promise.all(Array.from({ length: 5 }, (_, i) => world.client(`w${i}`, { startUrls: { key, type: 'set', batchSize: 40 } })));
    const got = (await Promise.all(clients.map((c) => drainAll(c)))).flat();
    expect(got).toHaveLength(300);
    expect(new Set(got).size).toBe(300);
    expect(await world.redis.scard(key)).toBe(0);
    expect(await world.admin().stats()).toMatchObject({ total: 300, pending: 300, deadLetters: 0 });
  });

  it('a sorted-set feed (REDIS_START_URLS_AS_ZSET) is read highest score first, as pop_priority_queue', async () => {
    world = createWorld(backend, `feed-zset-${Date.now()}`);
    const key = feedKey('zset');
    await world.redis.zadd(key, 1, url('low'), 10, url('high'), 5, url('mid'), 7, '{"url":"https://example.com/json","meta":{"p":7}}');
    const client = await world.client('a', { startUrls: { key, type: 'zset', batchSize: 2 } });
    expect(names((await client.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['high', 'json']);
    expect(names((await client.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['mid', 'low']);
    expect(await world.redis.zcard(key)).toBe(0);
  });

  it("several keys in priority order (scrapy-redis' list redis_key), each of its own layout with type 'auto'", async () => {
    world = createWorld(backend, `feed-multi-${Date.now()}`);
    const [high, mid, low] = [feedKey('high'), feedKey('mid'), feedKey('low')];
    await world.redis.rpush(low, url('l1'), url('l2'));
    await world.redis.sadd(mid, url('m1'));
    const client = await world.client('a', { startUrls: { keys: [high, mid, low], type: 'auto', batchSize: 10 } });
    expect(names((await client.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['m1']);
    await world.redis.zadd(high, 1, url('h1'));
    expect(names((await client.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['h1']);
    expect(names((await client.listAndLockHead({ limit: 10, lockSecs: 60 })).items)).toEqual(['l1', 'l2']);
  });

  it('a feed key of another type is a StartUrlFeedTypeError on open; during a drain it is skipped; nothing is read or written', async () => {
    world = createWorld(backend, `feed-type-${Date.now()}`);
    const hash = feedKey('hash');
    await world.redis.hset(hash, 'url', url(1));
    await expect(world.client('a', { startUrls: { key: hash, type: 'auto' } })).rejects.toBeInstanceOf(StartUrlFeedTypeError);
    const list = feedKey('list');
    await world.redis.rpush(list, url(1));
    await expect(world.client('b', { startUrls: { key: list, type: 'set' } })).rejects.toThrow(/is a Redis list, but the feed reads a set/);
    // The key changes type after the queue was opened: the drain skips it (one warning), the worker does not crash.
    const late = feedKey('late');
    const client = await world.client('c', { startUrls: { key: late } });
    await world.redis.set(late, 'https://example.com/x');
    const warnings = captureWarnings();
    try {
      for (let i = 0; i < 3; i++) expect((await client.listAndLockHead({ limit: 5, lockSecs: 60 })).items).toEqual([]);
    } finally {
      warnings.restore();
    }
    expect(warnings.lines.filter((l) => l.includes(late))).toHaveLength(1);
    expect(warnings.lines[0]).toMatch(/is a Redis string/);
    expect(await world.redis.get(late)).toBe('https://example.com/x');
    expect(await world.admin().stats()).toMatchObject({ total: 0, deadLetters: 0 });
  });

  it('bad feed options are InvalidOptionsError before anything is written', () => {
    world = createWorld(backend);
    const bad = [
      { key: 'a', keys: ['b'] },
      { keys: [] },
      { type: 'hash' },
      { format: 'xml' },
      { batchSize: 0 },
      { maxIdleSecs: -1 },
      { maxIdleSecs: Number.POSITIVE_INFINITY },
    ];
    for (const startUrls of bad) {
      expect(() => new RedisStorageClient({ redis: inject('redisUrl'), startUrls: startUrls as never })).toThrow(InvalidOptionsError);
    }
  });
});

/** Collects Crawlee's `log.warning` lines until `restore()`. */
function captureWarnings(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const original = log.warning.bind(log);
  log.warning = (message: string) => void lines.push(message);
  return { lines, restore: () => void (log.warning = original) };
}

describe('maxIdleSecs (MAX_IDLE_TIME_BEFORE_CLOSE)', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<html><title>${req.url}</title></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function crawl(maxIdleSecs: number): Promise<{ titles: string[]; ms: number }> {
    const key = feedKey(`idle-${maxIdleSecs}`);
    await world.redis.rpush(key, `${origin}/first`);
    const requestQueue = await openRedisRequestQueue(world.name, {
      redis: world.redis,
      keyPrefix: world.keyPrefix,
      startUrlsKey: key,
      startUrls: { maxIdleSecs },
    });
    const titles: string[] = [];
    const crawler = new CheerioCrawler(
      {
        requestQueue,
        requestHandler({ $ }) {
          titles.push($('title').text());
          // The feed is empty once this request ran; the late item arrives 2 s later.
          if (titles.length === 1) setTimeout(() => void world.redis.rpush(key, `${origin}/late`), 2000);
        },
      },
      new Configuration({ persistStorage: false }),
    );
    const start = Date.now();
    await crawler.run();
    return { titles, ms: Date.now() - start };
  }

  it('a running CheerioCrawler reads an item pushed 2 s after the feed went empty, then finishes once idle that long', async () => {
    world = createWorld(backend, `feed-idle-${Date.now()}`);
    const { titles, ms } = await crawl(5);
    expect(titles).toEqual(['/first', '/late']);
    // Finished on its own: about 2 s to the late item plus the 5 s window after it.
    expect(ms).toBeGreaterThan(5000);
  });

  it('a feed key replaced by a hash mid-run: one warning, the CheerioCrawler keeps crawling the queue and completes', async () => {
    world = createWorld(backend, `feed-retype-${Date.now()}`);
    const key = feedKey('retype');
    await world.redis.rpush(key, `${origin}/first`);
    const requestQueue = await openRedisRequestQueue(world.name, { redis: world.redis, keyPrefix: world.keyPrefix, startUrlsKey: key, startUrls: { maxIdleSecs: 3 } });
    const warnings = captureWarnings();
    const titles: string[] = [];
    const crawler = new CheerioCrawler(
      {
        requestQueue,
        maxConcurrency: 1,
        async requestHandler({ $, crawler: c }) {
          titles.push($('title').text());
          if (titles.length === 1) {
            // A third party replaces the feed key by a hash while the crawl runs; the queue still has work.
            await world.redis.del(key);
            await world.redis.hset(key, 'a', `${origin}/ignored`);
            await c.addRequests(Array.from({ length: 5 }, (_, i) => `${origin}/q${i}`));
          }
        },
      },
      new Configuration({ persistStorage: false }),
    );
    try {
      await crawler.run();
    } finally {
      warnings.restore();
    }
    expect(titles.sort()).toEqual(['/first', '/q0', '/q1', '/q2', '/q3', '/q4']);
    expect(warnings.lines.filter((l) => l.includes(`"${key}" is a Redis hash`))).toHaveLength(1);
    expect(await world.redis.hget(key, 'a')).toBe(`${origin}/ignored`);
  });

  it('without maxIdleSecs the crawler finishes as soon as the feed is empty and the late item stays in the feed', async () => {
    world = createWorld(backend, `feed-noidle-${Date.now()}`);
    const { titles } = await crawl(0);
    expect(titles).toEqual(['/first']);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await world.redis.lrange(feedKeys.at(-1)!, 0, -1)).toEqual([`${origin}/late`]);
  });
});

import { BasicCrawler, Configuration } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { defaultStartUrlsKey } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
let feedKey: string;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.redis.del(feedKey);
  await world.cleanup();
});

describe('start-URL feed (scrapy-redis <name>:start_urls)', () => {
  it('a worker drains valid items into the queue and dead-letters invalid ones with the reason; it does not crash', async () => {
    world = createWorld(backend, `feed-${Date.now()}`);
    feedKey = `${world.keyPrefix}-${defaultStartUrlsKey(world.name)}`;
    const items: Array<string | Buffer> = [
      'https://example.com/a',
      '{"url":"https://example.com/b","meta":{"job":"7"}}',
      '{"meta":{}}',
      '42',
      'null',
      '"https://example.com/d"',
      Buffer.from([0xff, 0xfe]),
      '{"url":"https://exa',
      '',
    ];
    // scrapy-redis users LPUSH; RPUSH here keeps the order readable (the feed is read from the left).
    for (const item of items) await world.redis.rpush(feedKey, item);
    const requestQueue = await openRedisRequestQueue(world.name, { redis: world.redis, keyPrefix: world.keyPrefix, startUrlsKey: feedKey });
    const handled: Array<{ url: string; userData: Record<string, unknown> }> = [];
    const crawler = new BasicCrawler(
      {
        requestQueue,
        requestHandler({ request }) {
          handled.push({ url: request.url, userData: { ...request.userData } });
          return Promise.resolve();
        },
      },
      new Configuration({ persistStorage: false }),
    );
    await crawler.run();
    expect(handled.map((h) => h.url).sort()).toEqual(['https://example.com/a', 'https://example.com/b', 'https://example.com/d']);
    expect(handled.find((h) => h.url.endsWith('/b'))!.userData).toMatchObject({ job: '7' });
    expect(await world.redis.llen(feedKey)).toBe(0);
    const letters = await world.admin().listDeadLetters();
    expect(letters).toHaveLength(6);
    expect(letters.every((l) => l.source === 'feed' && l.reason.length > 0)).toBe(true);
    expect(letters.map((l) => l.raw)).toContainEqual(Buffer.from([0xff, 0xfe]));
    expect(letters.map((l) => l.raw.toString())).toContain('{"url":"https://exa');
  });

  it('concurrent workers drain one feed: every item enqueued exactly once, none lost', async () => {
    world = createWorld(backend, `feed-${Date.now()}`);
    feedKey = `${world.keyPrefix}-feed`;
    await world.redis.rpush(feedKey, ...Array.from({ length: 500 }, (_, i) => `https://example.com/${i}`));
    const clients = await Promise.all(Array.from({ length: 5 }, (_, i) => world.client(`w${i}`, { startUrls: { key: feedKey, batchSize: 20 } })));
    const got: string[] = [];
    await Promise.all(
      clients.map(async (c) => {
        for (;;) {
          const head = await c.listAndLockHead({ limit: 7, lockSecs: 60 });
          if (head.items.length === 0) break;
          got.push(...names(head.items));
          for (const item of head.items) await c.updateRequest({ url: item.url, uniqueKey: item.uniqueKey, id: item.id, handledAt: new Date().toISOString() });
        }
      }),
    );
    expect(got).toHaveLength(500);
    expect(new Set(got).size).toBe(500);
    expect(await world.admin().stats()).toMatchObject({ total: 500, handled: 500, pending: 0, deadLetters: 0 });
  });

  it('feed items are deduplicated by uniqueKey unless alwaysEnqueue is set', async () => {
    world = createWorld(backend, `feed-${Date.now()}`);
    feedKey = `${world.keyPrefix}-feed`;
    await world.redis.rpush(feedKey, 'https://example.com/a', 'https://example.com/a');
    const dedup = await world.client('a', { startUrls: { key: feedKey } });
    expect(names((await dedup.listAndLockHead({ limit: 5, lockSecs: 60 })).items)).toEqual(['a']);
    await world.redis.rpush(feedKey, 'https://example.com/a', 'https://example.com/a');
    const always = await world.client('b', { startUrls: { key: feedKey, alwaysEnqueue: true } });
    expect(names((await always.listAndLockHead({ limit: 5, lockSecs: 60 })).items)).toEqual(['a', 'a']);
  });
});

// Entries that are valid JSON but not valid requests, written straight into the queue's `data` (as a
// foreign writer or an old version would) and pushed into the start-URL feed, crawled by two real CheerioCrawlers
// against a local HTTP site. Each broken entry ends in the dead letters once, with the reason; every valid page is
// crawled once; neither crawler crashes or retries an entry for ever; the counters stay exact. The feed is proven in
// both item formats: the Crawlee format (`startUrls.format: 'crawlee'`) and the default scrapy-redis
// `make_request_from_data` format, each with its own broken shapes. A broken feed item that were wrongly read as a
// valid request points at a dead port (127.0.0.1:1), so it would fail in the crawler and break `requestsFailed: 0`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheerioCrawler, Configuration } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StartUrlFeedOptions } from '../../src/feed/feed-options.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { requestIdOf } from '../../src/core/request-codec.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
let server: Server;
let site: string;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
  // Page i links to i+1 and 2i (up to 40): a small site the crawlers discover through enqueueLinks.
  server = createServer((req, res) => {
    const i = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    const links = [i + 1, 2 * i].filter((n) => n >= 1 && n <= 40).map((n) => `<a href="/p/${n}">${n}</a>`);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body><h1>${i}</h1>${links.join('')}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await backend.stop();
});
afterEach(async () => {
  await world?.cleanup();
});

/** Appends one raw entry at the tail of the queue, with the counters a real add would move. */
const WRITE_RAW_ENTRY = `
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local n = redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'total', 1)
redis.call('HINCRBY', KEYS[1], 'pending', 1)
return n`;

const brokenEntries = (): Record<string, Record<string, unknown>> => {
  const at = (n: string) => ({ url: `${site}/bad/${n}`, uniqueKey: `${site}/bad/${n}` });
  return {
    ftp: { ...at('ftp'), url: 'ftp://127.0.0.1/x' },
    javascript: { ...at('js'), url: 'javascript:alert(1)' },
    userDataString: { ...at('ud'), userData: 'label=DETAIL' },
    userDataArray: { ...at('ua'), userData: [1] },
    crawleeInternalString: { ...at('ci'), userData: { __crawlee: 'x' } },
    headersString: { ...at('hs'), headers: 'Accept: */*' },
    retryCountString: { ...at('rc'), retryCount: '3' },
    retryCountNegative: { ...at('rn'), retryCount: -1000000 },
    methodNumber: { ...at('mn'), method: 1 },
    methodObject: { ...at('mo'), method: { name: 'GET' } },
    getWithPayload: { ...at('gp'), payload: 'a=1' },
    errorMessagesString: { ...at('em'), errorMessages: 'boom' },
    loadedUrlNotUrl: { ...at('lu'), loadedUrl: 'not a url' },
    noRetryString: { ...at('nr'), noRetry: 'true' },
  };
};

/** Broken items in the Crawlee feed format, each with the reason it must be dead-lettered for. */
const BROKEN_CRAWLEE_FEED_ITEMS: Record<string, RegExp> = {
  '{"url":"ftp://127.0.0.1/feed"}': /"url" is not an http\(s\) URL/,
  '{"url":"http://127.0.0.1:1/feed-ud","userData":"x"}': /"userData" \(or "meta"\) must be an object/,
  '{"url":"http://127.0.0.1:1/feed-ci","userData":{"__crawlee":"x"}}': /__crawlee/,
  '{"url":"http://127.0.0.1:1/feed-m","method":7}': /unsupported "method": 7/,
  '{"url":"http://127.0.0.1:1/feed-h","headers":{"a":1}}': /"headers" must be an object of strings/,
};

/** Broken items in the scrapy-redis `make_request_from_data` format (the default), each with its reason. Every key
 * other than url/method/meta is a form field there, so the Crawlee shapes above are not the broken ones. */
const BROKEN_SCRAPY_REDIS_FEED_ITEMS: Record<string, RegExp> = {
  '{"url":"ftp://127.0.0.1/feed"}': /"url" is not an http\(s\) URL/,
  'javascript:alert(1)': /not JSON and not an http\(s\) URL/,
  '"ftp://127.0.0.1/feed-string"': /JSON string is not an http\(s\) URL/,
  '{"url":7}': /"url" is a JSON number, not a string/,
  '{"url":["http://127.0.0.1:1/feed-ua"]}': /"url" is a JSON array, not a string/,
  '{"meta":{"job":"1"}}': /without "url"/,
  '{"url":"http://127.0.0.1:1/feed-ms","meta":"job"}': /"meta" is a JSON string, not an object/,
  '{"url":"http://127.0.0.1:1/feed-ma","meta":[1]}': /"meta" is a JSON array, not an object/,
  '{"url":"http://127.0.0.1:1/feed-ci","meta":{"__crawlee":"x"}}': /__crawlee/,
  '{"url":"http://127.0.0.1:1/feed-mn","method":7}': /"method" is a JSON number, not a string/,
  '{"url":"http://127.0.0.1:1/feed-mo","method":{"name":"GET"}}': /"method" is a JSON object, not a string/,
  '{"url":"http://127.0.0.1:1/feed-mf","method":"FETCH"}': /unsupported "method": "FETCH"/,
  '{"url":"http://127.0.0.1:1/feed-fn","page":5}': /field "page" holds a JSON number/,
  '{"url":"http://127.0.0.1:1/feed-fl","tag":["a",1]}': /field "tag" holds a JSON number/,
  '{"url":"http://127.0.0.1:1/feed-fo","q":{"0":"a"}}': /field "q" is an object with numeric keys/,
  '{"url":"http://127.0.0.1:1/feed-fs","q":"\\ud800"}': /lone surrogate/,
  '42': /JSON number is neither a URL nor an object/,
};

/** Dead letters of the feed: each broken item once, with its own reason. */
async function expectFeedLetters(world: QueueWorld, broken: Record<string, RegExp>): Promise<void> {
  const feedLetters = (await world.admin().listDeadLetters()).filter((l) => l.source === 'feed');
  expect(feedLetters.map((l) => l.raw.toString()).sort()).toEqual(Object.keys(broken).sort());
  for (const letter of feedLetters) expect(letter.reason, letter.raw.toString()).toMatch(broken[letter.raw.toString()]!);
}

/** Two real CheerioCrawlers on one queue with a feed, against the local site; returns their stats and page visits. */
async function crawlTwice(world: QueueWorld, startUrls: StartUrlFeedOptions) {
  const visits = new Map<string, number>();
  const crawl = async () => {
    const requestQueue = await openRedisRequestQueue(world.name, {
      storageClient: world.storageClient({ startUrls, fastProlong: true }),
      requestHandlerTimeoutSecs: 10,
    });
    const crawler = new CheerioCrawler(
      {
        requestQueue,
        maxConcurrency: 4,
        maxRequestRetries: 2,
        requestHandlerTimeoutSecs: 10,
        async requestHandler({ request, enqueueLinks }) {
          const path = new URL(request.loadedUrl ?? request.url).pathname;
          visits.set(path, (visits.get(path) ?? 0) + 1);
          await enqueueLinks();
        },
      },
      new Configuration({ persistStorage: false, purgeOnStart: false }),
    );
    return crawler.run();
  };
  const [a, b] = await Promise.all([crawl(), crawl()]);
  return { failed: a.requestsFailed + b.requestsFailed, visits };
}

const ALL_PAGES = Array.from({ length: 40 }, (_, i) => `/p/${i + 1}`).sort();

describe('valid JSON that is not a valid request', () => {
  it('many broken shapes in data and in the feed: dead letters once with the reason, all valid pages crawled once', { timeout: 120_000 }, async () => {
    world = createWorld(backend, `invalid-${Date.now()}`);
    const { meta, data, fifo } = world.admin().keys;
    const feedKey = `${world.keyPrefix}-feed`;
    const broken = brokenEntries();
    const seed = await openRedisRequestQueue(world.name, { redis: world.redis, keyPrefix: world.keyPrefix });
    await seed.addRequest({ url: `${site}/p/1` });
    const ids: Record<string, string> = {};
    for (const [name, entry] of Object.entries(broken)) {
      ids[requestIdOf(String(entry.uniqueKey))] = name;
      await world.redis.eval(WRITE_RAW_ENTRY, 3, meta, data, fifo, requestIdOf(String(entry.uniqueKey)), JSON.stringify(entry));
    }
    // A valid request stored under an id that is not its uniqueKey's (Crawlee would update it under another id).
    const misplaced = { url: `${site}/bad/misplaced`, uniqueKey: `${site}/bad/misplaced` };
    ids['misplaced-id-000'] = 'misplacedId';
    broken.misplacedId = misplaced;
    await world.redis.eval(WRITE_RAW_ENTRY, 3, meta, data, fifo, 'misplaced-id-000', JSON.stringify(misplaced));
    await world.redis.rpush(feedKey, ...Object.keys(BROKEN_CRAWLEE_FEED_ITEMS), `${site}/p/40`);

    // These feed items are in the Crawlee format, so the feed says so (the default is scrapy-redis').
    const { failed, visits } = await crawlTwice(world, { key: feedKey, format: 'crawlee' });

    expect([...visits.keys()].sort()).toEqual(ALL_PAGES);
    expect([...visits.values()].every((n) => n === 1)).toBe(true);
    expect(failed).toBe(0);

    const letters = await world.admin().listDeadLetters();
    const queueLetters = letters.filter((l) => l.source === 'queue');
    expect(queueLetters.map((l) => ids[l.id]).sort()).toEqual(Object.keys(broken).sort());
    for (const letter of queueLetters) {
      expect(letter.reason, ids[letter.id]).toMatch(/^not a valid Crawlee request: .*("\w+"|payload)|^stored under id/);
      expect(JSON.parse(letter.raw.toString()), ids[letter.id]).toEqual(broken[ids[letter.id]!]);
    }
    await expectFeedLetters(world, BROKEN_CRAWLEE_FEED_ITEMS);
    expect(await world.redis.llen(feedKey)).toBe(0);
    expect(await world.admin().stats()).toEqual({ total: 40, pending: 0, locked: 0, handled: 40, deadLetters: letters.length });
  });

  it('broken scrapy-redis-format feed items (the default format): dead letters once with the reason, valid items crawled once', { timeout: 120_000 }, async () => {
    world = createWorld(backend, `invalid-sr-${Date.now()}`);
    const feedKey = `${world.keyPrefix}-feed`;
    // Valid scrapy-redis items among the broken ones: a bare URL and a JSON object with meta (becomes userData).
    const valid = [`${site}/p/1`, JSON.stringify({ url: `${site}/p/40`, meta: { via: 'feed' } })];
    await world.redis.rpush(feedKey, ...Object.keys(BROKEN_SCRAPY_REDIS_FEED_ITEMS), ...valid);

    const { failed, visits } = await crawlTwice(world, { key: feedKey });

    expect([...visits.keys()].sort()).toEqual(ALL_PAGES);
    expect([...visits.values()].every((n) => n === 1)).toBe(true);
    expect(failed).toBe(0);
    await expectFeedLetters(world, BROKEN_SCRAPY_REDIS_FEED_ITEMS);
    const letters = await world.admin().listDeadLetters();
    expect(letters.every((l) => l.source === 'feed')).toBe(true);
    expect(await world.redis.llen(feedKey)).toBe(0);
    expect(await world.admin().stats()).toEqual({ total: 40, pending: 0, locked: 0, handled: 40, deadLetters: letters.length });
  });
});

// Compact uniqueKeys on a real Redis, through real Crawlee workers: a request whose uniqueKey is Crawlee's normalized
// URL (a query of two parameters, sorted by Crawlee) stores no uniqueKey, a Scrapy fingerprint stores 20 bytes, any
// other uniqueKey is stored as text. Every reader gets each one back: the crawler, getRequest of a handled request,
// the admin's failed list and requeueFailed, the dead letters' requeue. A record whose marker does not hold (the
// writer's normalized URL is not this Crawlee's, a fingerprint byte flipped) ends in the dead letters, never in a
// handler under a wrong uniqueKey.
import { createHash } from 'node:crypto';
import { BasicCrawler, Configuration, Request } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { requestIdOf } from '../../src/core/request-codec.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

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

/** Appends one raw entry at the tail of the queue, with the counters a real add would move. */
const WRITE_RAW_ENTRY = `
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local n = redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'total', 1)
redis.call('HINCRBY', KEYS[1], 'pending', 1)
return n`;

const fingerprintOf = (url: string) => createHash('sha1').update(url).digest('hex');
const userData = { label: 'DETAIL', depth: 2 };
const plainUrl = 'https://www.example.com/category/1/item-1?ref=list';
const twoParamUrl = 'https://www.example.com/category/2/item-2?ref=list&page=3';
const fpUrl = 'https://www.example.com/category/3/item-3?ref=list&page=4';
const customUrl = 'https://www.example.com/category/4/item-4';

async function crawl(world: QueueWorld, handler: (request: Request) => void, options: { failUrl?: string } = {}) {
  const requestQueue = await openRedisRequestQueue(world.name, { storageClient: world.storageClient({ failedRequests: 'keep' }) });
  const crawler = new BasicCrawler(
    {
      requestQueue,
      maxRequestRetries: 0,
      requestHandler({ request }) {
        handler(request);
        if (request.url === options.failUrl) throw new Error('fails for good');
        return Promise.resolve();
      },
      failedRequestHandler: () => {},
    },
    new Configuration({ persistStorage: false, purgeOnStart: false }),
  );
  await crawler.run();
  return requestQueue;
}

describe('compact uniqueKeys', () => {
  it('normalized URL and fingerprint uniqueKeys cost a marker and 20 bytes; every reader reads the three kinds', { timeout: 60_000 }, async () => {
    world = createWorld(backend, `compact-${Date.now()}`, { handledRequests: 'request' });
    const queue = await openRedisRequestQueue(world.name, { storageClient: world.storageClient() });
    const requests = [
      new Request({ url: plainUrl, userData }),
      new Request({ url: twoParamUrl, userData }),
      new Request({ url: fpUrl, uniqueKey: fingerprintOf(fpUrl), userData }),
      new Request({ url: customUrl, uniqueKey: 'custom:4', userData }),
    ];
    expect(requests[1]!.uniqueKey).not.toBe(twoParamUrl); // Crawlee sorts the query
    await queue.addRequests(requests);

    // The bytes: the plain record is its URL and userData; the normalized one the same plus nothing; the fingerprint
    // one 21 bytes more; the custom uniqueKey is stored as before.
    const stored = async (r: Request) => (await world.redis.hgetBuffer(world.admin().keys.data, requestIdOf(r.uniqueKey)))!;
    const ud = JSON.stringify(userData);
    expect((await stored(requests[0]!)).toString()).toBe(`S${plainUrl.slice(8)}\n${ud}`);
    expect((await stored(requests[1]!)).toString()).toBe(`s${twoParamUrl.slice(8)}\n${ud}`);
    const fp = await stored(requests[2]!);
    expect(fp.length).toBe(1 + 20 + Buffer.byteLength(`S${fpUrl.slice(8)}\n${ud}`));
    expect(fp.subarray(1, 21).toString('hex')).toBe(requests[2]!.uniqueKey);
    expect((await stored(requests[3]!)).toString()).toContain('"uniqueKey":"custom:4"');

    // The crawler reads them (one fails for good, for the admin's readers below).
    const seen = new Map<string, string>();
    await crawl(world, (r) => seen.set(r.url, r.uniqueKey), { failUrl: fpUrl });
    expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(requests.map((r) => [r.url, r.uniqueKey])));
    for (const r of requests) {
      const got = await queue.getRequest(requestIdOf(r.uniqueKey)); // the handled record, in 'request' mode
      expect(got?.uniqueKey).toBe(r.uniqueKey);
      expect(got?.userData).toEqual(userData);
    }

    // The admin's failed list and its requeue read the fingerprint back.
    const admin = world.admin();
    const failed = await admin.failed();
    expect(failed.map((f) => [f.url, f.uniqueKey])).toEqual([[fpUrl, requests[2]!.uniqueKey]]);
    expect(await admin.requeueFailed()).toMatchObject({ requeued: 1, skipped: 0 });
    const again = new Map<string, string>();
    await crawl(world, (r) => again.set(r.url, r.uniqueKey));
    expect(Object.fromEntries(again)).toEqual({ [fpUrl]: requests[2]!.uniqueKey });
    expect(await admin.listDeadLetters()).toEqual([]);
  });

  it('a record whose marker does not hold is a dead letter with the reason, never a request under a wrong uniqueKey', { timeout: 60_000 }, async () => {
    world = createWorld(backend, `compact-bad-${Date.now()}`);
    await openRedisRequestQueue(world.name, { storageClient: world.storageClient() });
    const { meta, data, fifo } = world.admin().keys;
    // Claims "uniqueKey = normalized URL", but the writer's uniqueKey was the URL as given (query unsorted).
    const claimed = `s${twoParamUrl.slice(8)}\n`;
    await world.redis.eval(WRITE_RAW_ENTRY, 3, meta, data, fifo, requestIdOf(twoParamUrl), claimed);
    // A fingerprint record with one flipped bit.
    const fingerprint = fingerprintOf(fpUrl);
    const flipped = Buffer.concat([Buffer.from('#'), Buffer.from(fingerprint, 'hex'), Buffer.from(`S${fpUrl.slice(8)}\n`)]);
    flipped[5]! ^= 1;
    await world.redis.eval(WRITE_RAW_ENTRY, 3, meta, data, fifo, requestIdOf(fingerprint), flipped);
    // A fingerprint record cut short.
    await world.redis.eval(WRITE_RAW_ENTRY, 3, meta, data, fifo, requestIdOf('cut'), Buffer.from('#abc'));

    const seen: string[] = [];
    await crawl(world, (r) => seen.push(r.uniqueKey));
    expect(seen).toEqual([]);
    const letters = await world.admin().listDeadLetters();
    const reasons = Object.fromEntries(letters.map((l) => [l.id, l.reason]));
    expect(reasons[requestIdOf(twoParamUrl)]).toMatch(/normalized URL the record claims/);
    expect(reasons[requestIdOf(fingerprint)]).toMatch(/fingerprint bytes of the record/);
    expect(reasons[requestIdOf('cut')]).toMatch(/fingerprint record shorter/);
    // The dead letters keep the bytes exactly as found.
    expect(letters.find((l) => l.id === requestIdOf(fingerprint))!.raw.equals(flipped)).toBe(true);
  });

  it("the admin's failed list does not show a failed request under a uniqueKey its marker does not prove", { timeout: 60_000 }, async () => {
    world = createWorld(backend, `compact-failed-${Date.now()}`);
    const queue = await openRedisRequestQueue(world.name, { storageClient: world.storageClient() });
    const fingerprint = fingerprintOf(fpUrl);
    await queue.addRequest({ url: fpUrl, uniqueKey: fingerprint });
    await crawl(world, () => {}, { failUrl: fpUrl });
    const admin = world.admin();
    expect((await admin.failed()).map((f) => f.uniqueKey)).toEqual([fingerprint]);
    // One bit of the kept record's fingerprint flipped (the 'key' mode keeps failed records in failedKept).
    const id = requestIdOf(fingerprint);
    const stored = (await world.redis.hgetBuffer(admin.keys.failedKept, id))!;
    stored[7]! ^= 1;
    await world.redis.hset(admin.keys.failedKept, id, stored);
    const [entry] = await admin.failed();
    expect(entry).toMatchObject({ id, state: 'kept' });
    expect(entry!.uniqueKey).toBeUndefined();
    expect(await admin.requeueFailed()).toMatchObject({ requeued: 0, skipped: 1 });
  });
});

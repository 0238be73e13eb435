import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheerioCrawler, Configuration, MemoryStorage, RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ForgetUnsupportedError,
  InvalidDedupOptionsError,
  MemoryBloomDedupStore,
  RedisSetDedupStore,
  withDedup,
} from '../src/index.js';
import { connect, deleteKeys, testKey } from './helpers.js';

/** Paths the server was asked for, in order. */
const hits: string[] = [];

/** /fail always answers 500; /flaky 500 on its first request, then a page linking to /fail; /links links to /fail and /ok. */
function site(): Server {
  let flaky = 0;
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.push(path);
    res.setHeader('content-type', 'text/html');
    if (path === '/fail' || (path === '/flaky' && flaky++ === 0)) {
      res.statusCode = 500;
      res.end('<html><body>down</body></html>');
    } else if (path === '/links' || path === '/flaky') {
      res.end('<html><body><a href="/fail">fail</a><a href="/ok">ok</a></body></html>');
    } else {
      res.end('<html><body>ok</body></html>');
    }
  });
}

describe('withDedup({ forgetFailed: true }) with a real CheerioCrawler run', () => {
  let server: Server;
  let base: string;
  let redis: Redis;
  const prefix = testKey('forget-failed');
  beforeAll(async () => {
    server = site();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    redis = connect();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  /** One run: a fresh MemoryStorage queue (as a new process would have), the shared set. */
  async function run(key: string, forgetFailed: boolean) {
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
    const queue = await RequestQueue.open(`run-${Math.random().toString(36).slice(2)}`, { config });
    withDedup(queue, { store: new RedisSetDedupStore({ redis, key }), forgetFailed });
    const from = hits.length;
    const failed: string[] = [];
    const crawler = new CheerioCrawler(
      {
        requestQueue: queue,
        maxConcurrency: 1,
        maxRequestRetries: 1,
        async requestHandler({ enqueueLinks }) {
          await enqueueLinks({ strategy: 'same-origin' });
        },
        failedRequestHandler({ request }) {
          failed.push(new URL(request.url).pathname);
        },
      },
      config,
    );
    await crawler.run(['/fail', '/ok', '/flaky', '/links'].map((p) => `${base}${p}`));
    await queue.drop();
    return { fetched: hits.slice(from).sort(), failed };
  }

  it('a request that failed for good is forgotten in the shared set, so the next run retries it (and only it)', async () => {
    const key = `${prefix}:on:dupefilter`;
    const first = await run(key, true);
    expect(first.failed).toEqual(['/fail']);
    // /links (before the failure) and /flaky's retry (after it) link /fail again: not fetched a third time, and not
    // marked seen again after it was forgotten.
    expect(first.fetched.filter((p) => p === '/fail')).toHaveLength(2);
    // /flaky failed once and then succeeded: it has errorMessages, but it is not a failure and stays seen.
    expect((await redis.smembers(key)).sort()).toEqual([`${base}/flaky`, `${base}/links`, `${base}/ok`]);
    const second = await run(key, true);
    expect(second.fetched).toEqual(['/fail', '/fail']); // one request, one retry
    expect(second.failed).toEqual(['/fail']);
    expect(await redis.sismember(key, `${base}/fail`)).toBe(0);
  });

  it('control: without forgetFailed the failed request stays seen and the next run fetches nothing', async () => {
    const key = `${prefix}:off:dupefilter`;
    const first = await run(key, false);
    expect(first.failed).toEqual(['/fail']);
    expect(await redis.sismember(key, `${base}/fail`)).toBe(1);
    const second = await run(key, false);
    expect(second.fetched).toEqual([]);
  });

  it('is refused for a store that cannot forget, before anything runs', async () => {
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
    const queue = await RequestQueue.open(`refuse-${Math.random().toString(36).slice(2)}`, { config });
    const bloom = new MemoryBloomDedupStore({ capacity: 100, errorRate: 0.01 });
    expect(() => withDedup(queue, { store: bloom, forgetFailed: true })).toThrow(ForgetUnsupportedError);
    const legacy = { add: bloom.add.bind(bloom), has: bloom.has.bind(bloom), stats: bloom.stats.bind(bloom), recordFiltered: () => Promise.resolve(), close: () => Promise.resolve() };
    expect(() => withDedup(queue, { store: legacy, forgetFailed: true })).toThrow(ForgetUnsupportedError);
    // The refused calls left the queue unwrapped: it can still be wrapped once.
    expect(() => withDedup(queue, { store: bloom, dontFilter: 'yes' as never })).toThrow(InvalidDedupOptionsError);
    withDedup(queue, { store: bloom });
    await queue.drop();
  });
});

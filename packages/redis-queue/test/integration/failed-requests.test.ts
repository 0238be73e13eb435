// Requests that fail for good, with real CheerioCrawler runs against a local site whose /bad page answers 500:
// the queue records them in its failed index atomically with the handled mark; requeueFailed puts them back so a
// second run fetches only them; `failedRequests: 'forget'` lets a later run's re-add fetch them again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheerioCrawler, Configuration, type RequestQueue } from 'crawlee';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
let server: Server;
let origin: string;
const hits: string[] = [];
let badFails = true;

beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
  server = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url === '/bad' && badFails) {
      res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>broken</body></html>');
      return;
    }
    const links = req.url === '/' ? '<a href="/a">a</a><a href="/b">b</a><a href="/bad">bad</a>' : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${req.url}</title></head><body>${links}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await backend.stop();
});
afterEach(async () => {
  await world?.cleanup();
  hits.length = 0;
  badFails = true;
});

async function crawl(queue: RequestQueue, start?: string[]): Promise<{ failed: string[] }> {
  const failed: string[] = [];
  const crawler = new CheerioCrawler(
    {
      requestQueue: queue,
      maxRequestRetries: 1,
      maxConcurrency: 2,
      async requestHandler({ enqueueLinks }) {
        await enqueueLinks();
      },
      failedRequestHandler({ request }) {
        failed.push(new URL(request.url).pathname);
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: false }),
  );
  await crawler.run(start);
  return { failed };
}

const open = (options: { failedRequests?: 'keep' | 'forget' } = {}) =>
  openRedisRequestQueue(world.name, { redis: backend.connect(), keyPrefix: world.keyPrefix, workerStats: false, ...options });

describe('failed requests', () => {
  it("run 1 records the failed URL; requeueFailed; run 2 fetches only it (keep mode)", async () => {
    world = createWorld(backend, 'failing-site');
    const run1 = await crawl(await open(), [`${origin}/`]);
    expect(run1.failed).toEqual(['/bad']);
    const admin = world.admin();
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 0, handled: 4 });
    const failed = await admin.failed();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ url: `${origin}/bad`, state: 'kept', retryCount: 1 });
    expect(failed[0]!.errorMessages!.length).toBeGreaterThan(0);

    // A later run cannot add it again: it is still seen.
    expect((await (await open()).addRequest({ url: `${origin}/bad` })).wasAlreadyHandled).toBe(true);

    expect(await admin.requeueFailed()).toEqual({ requeued: 1, alreadyQueued: 0, skipped: 0, missing: 0 });
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 1, handled: 3 });
    expect(await admin.failedCount()).toBe(0);
    badFails = false;
    hits.length = 0;
    const run2 = await crawl(await open());
    expect(run2.failed).toEqual([]);
    expect(hits).toEqual(['/bad']);
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 0, handled: 4 });
    expect(await admin.failedCount()).toBe(0);
    // Requeueing again finds nothing.
    expect(await admin.requeueFailed()).toEqual({ requeued: 0, alreadyQueued: 0, skipped: 0, missing: 0 });
  });

  it("'forget' mode: the failed request leaves the queue, so the next run's add fetches it; requeue then finds it queued", async () => {
    world = createWorld(backend, 'forget-site');
    const run1 = await crawl(await open({ failedRequests: 'forget' }), [`${origin}/`]);
    expect(run1.failed).toEqual(['/bad']);
    const admin = world.admin();
    expect(await admin.stats()).toMatchObject({ total: 3, pending: 0, handled: 3 });
    expect(await admin.failed()).toMatchObject([{ url: `${origin}/bad`, state: 'forgotten' }]);

    badFails = false;
    hits.length = 0;
    await crawl(await open({ failedRequests: 'forget' }), [`${origin}/`, `${origin}/bad`]);
    expect(hits).toEqual(['/bad']);
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 0, handled: 4 });
    // It was added again and handled: requeueing the stale failed entry must not re-open it.
    expect(await admin.requeueFailed()).toMatchObject({ requeued: 0, alreadyQueued: 1 });
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 0, handled: 4 });
  });

  it("'forget' mode requeue brings a forgotten request back into the counters", async () => {
    world = createWorld(backend, 'forget-requeue');
    await crawl(await open({ failedRequests: 'forget' }), [`${origin}/`]);
    const admin = world.admin();
    expect(await admin.requeueFailed({ ids: ['no-such-id', (await admin.failed())[0]!.id] })).toEqual({ requeued: 1, alreadyQueued: 0, skipped: 0, missing: 1 });
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 1, handled: 3 });
    badFails = false;
    hits.length = 0;
    await crawl(await open({ failedRequests: 'forget' }));
    expect(hits).toEqual(['/bad']);
    expect(await admin.stats()).toMatchObject({ total: 4, pending: 0, handled: 4 });
  });

  it('rejects a bad failedRequests value and bad list options before anything is written', async () => {
    world = createWorld(backend, 'bad-options');
    await expect(open({ failedRequests: 'drop' as 'keep' })).rejects.toThrow(InvalidOptionsError);
    await expect(world.admin().failed({ limit: 0 })).rejects.toThrow(InvalidOptionsError);
    await expect(world.admin().failed({ limit: 10_001 })).rejects.toThrow(InvalidOptionsError);
    expect(await world.redis.exists(world.admin().keys.meta)).toBe(0);
  });
});

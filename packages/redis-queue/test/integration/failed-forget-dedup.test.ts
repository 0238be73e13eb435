// `failedRequests: 'forget'` on the queue together with crawlee-bloom-dedup's `withDedup({ forgetFailed: true })` on
// a Redis set store attached inside the add script: a URL that failed for good leaves both the queue and the store,
// so the next run on the SAME Redis queue fetches it again (and only it). The control keeps the queue's default
// ('keep'): the store forgot it, but the queue still has it handled, so nothing is fetched.
// crawlee-bloom-dedup is used through its built dist (neither package depends on the other).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CheerioCrawler, Configuration, type RequestQueue } from 'crawlee';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

const DEDUP_DIST = fileURLToPath(new URL('../../../bloom-dedup/dist/index.js', import.meta.url));
if (!existsSync(DEDUP_DIST)) throw new Error(`${DEDUP_DIST} is missing: npx turbo run build --filter=crawlee-bloom-dedup`);
type DedupModule = {
  RedisSetDedupStore: new (o: { redis: Redis; key: string }) => { close(): Promise<void> };
  withDedup: (queue: RequestQueue, o: { store: unknown; forgetFailed?: boolean }) => void;
};

let backend: TestBackend;
let world: QueueWorld;
let server: Server;
let origin: string;
let dedup: DedupModule;
const hits: string[] = [];
beforeAll(async () => {
  dedup = (await import(/* @vite-ignore */ DEDUP_DIST)) as DedupModule;
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
  server = createServer((req, res) => {
    hits.push(req.url!);
    res.setHeader('content-type', 'text/html');
    if (req.url === '/bad') res.writeHead(500).end('<html><body>down</body></html>');
    else res.end(`<html><body>${req.url === '/' ? '<a href="/ok">ok</a><a href="/bad">bad</a>' : 'ok'}</body></html>`);
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
});

async function run(mode: 'keep' | 'forget', setKey: string): Promise<string[]> {
  const redis = backend.connect() as Redis;
  const queue = await openRedisRequestQueue(world.name, { redis, keyPrefix: world.keyPrefix, workerStats: false, failedRequests: mode });
  const store = new dedup.RedisSetDedupStore({ redis, key: setKey });
  dedup.withDedup(queue, { store, forgetFailed: true });
  const from = hits.length;
  const crawler = new CheerioCrawler(
    {
      requestQueue: queue,
      maxRequestRetries: 0,
      maxConcurrency: 1,
      async requestHandler({ enqueueLinks }) {
        await enqueueLinks();
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: false }),
  );
  // Every run seeds the start page and the bad page again, as a rerun of a seeding script would.
  await crawler.run([`${origin}/`, `${origin}/bad`]);
  return hits.slice(from).sort();
}

describe("failedRequests: 'forget' + withDedup({ forgetFailed })", () => {
  it('the next run on the same Redis queue fetches only the failed URL', async () => {
    world = createWorld(backend, 'forget-dedup');
    const setKey = `{${world.keyPrefix}:rq:${world.name}}:dupefilter`; // the queue's hash tag: filtered in the add script
    expect(await run('forget', setKey)).toEqual(['/', '/bad', '/ok']);
    expect(await world.redis.sismember(setKey, `${origin}/bad`)).toBe(0);
    expect(await run('forget', setKey)).toEqual(['/bad']);
    expect(await world.admin().stats()).toMatchObject({ total: 2, pending: 0, handled: 2 });
    await world.redis.del(setKey);
  });

  it("control: with 'keep' the queue still has it handled, so the next run fetches nothing", async () => {
    world = createWorld(backend, 'keep-dedup');
    const setKey = `{${world.keyPrefix}:rq:${world.name}}:dupefilter`;
    expect(await run('keep', setKey)).toEqual(['/', '/bad', '/ok']);
    expect(await run('keep', setKey)).toEqual([]);
    await world.redis.del(setKey);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheerioCrawler, Configuration, MemoryStorage, RequestQueue } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEDUP_FILTERED_STAT, MemoryBloomDedupStore, RedisBloomDedupStore, withDedup, type DedupStore } from '../src/index.js';
import { connect, deleteKeys, testKey } from './helpers.js';

/** `/same` links 10 times to itself and once to /new-same; `/vary` links to /vary?v=0..9 and once to /new-vary. */
function site(): Server {
  return createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/same') {
      res.end(`<html><body>${'<a href="/same">me</a>'.repeat(10)}<a href="/new-same">new</a></body></html>`);
    } else if (path === '/vary') {
      const self = Array.from({ length: 10 }, (_, i) => `<a href="/vary?v=${i}">me</a>`).join('');
      res.end(`<html><body>${self}<a href="/new-vary">new</a></body></html>`);
    } else {
      res.end('<html><body>leaf</body></html>');
    }
  });
}

describe('CheerioCrawler with maxRequestsPerCrawl: 10 and a start page linking 10 times to itself', () => {
  let server: Server;
  let base: string;
  let redis: Redis;
  const prefix = testKey('crawler');
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

  async function crawl(start: string, store?: DedupStore, key?: (r: { url: string }) => string) {
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
    const queue = await RequestQueue.open(`crawl-${Math.random().toString(36).slice(2)}`, { config });
    const visited: string[] = [];
    const crawler = new CheerioCrawler(
      {
        requestQueue: queue,
        maxRequestsPerCrawl: 10,
        maxConcurrency: 1,
        async requestHandler({ request, enqueueLinks }) {
          visited.push(new URL(request.url).pathname + new URL(request.url).search);
          await enqueueLinks({ strategy: 'same-origin' });
        },
      },
      config,
    );
    if (store) withDedup(queue, { store, key, statistics: crawler.stats });
    await crawler.run([`${base}${start}`]);
    const internals = crawler.stats as unknown as { keyValueStore: { getValue<T>(k: string): Promise<T | null> }; persistStateKey: string };
    const persisted = await internals.keyValueStore.getValue<Record<string, unknown>>(internals.persistStateKey);
    await queue.drop();
    return { visited, stats: crawler.stats.toJSON() as unknown as Record<string, unknown>, persisted };
  }

  it('crawls the new page (self-links filtered by an in-memory Bloom, reported as already present)', async () => {
    const { visited, stats, persisted } = await crawl('/same', new MemoryBloomDedupStore({ capacity: 1000, errorRate: 1e-6 }));
    expect(visited.sort()).toEqual(['/new-same', '/same']);
    expect(stats[DEDUP_FILTERED_STAT]).toBe(10);
    expect(persisted?.[DEDUP_FILTERED_STAT]).toBe(10);
  });

  it('crawls the new page when the self-links differ in uniqueKey but share the dedup key (Redis Bloom)', async () => {
    const store = new RedisBloomDedupStore({ redis, key: `${prefix}:vary`, capacity: 1000, errorRate: 1e-6 });
    const { visited, stats } = await crawl('/vary', store, (r) => r.url.split('?')[0]!);
    expect(visited.sort()).toEqual(['/new-vary', '/vary']);
    expect(stats[DEDUP_FILTERED_STAT]).toBe(10);
    expect(await store.stats()).toMatchObject({ filtered: 10, itemsAdded: 2 });
  });

  it('control: without withDedup the 10 self-variants use up the budget and the new page is never crawled', async () => {
    const { visited } = await crawl('/vary');
    expect(visited).not.toContain('/new-vary');
    expect(visited.length).toBeGreaterThan(2);
  });
});

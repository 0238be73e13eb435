import { rmSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildDemoSiteModel } from '../src/demo-site/model.js';
import type { PageRecord } from '../src/worker/page-record.js';
import { freePort } from '@crawlee-distributed/test-utils';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { Redis } from 'ioredis';
import { crawl, outputDir } from './helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const model = buildDemoSiteModel();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The model's key of a recorded page: site path plus the query sorted by name (tracking parameters already gone). */
function keyOf(record: PageRecord): string {
  const url = new URL(record.url);
  const pairs = [...url.searchParams.entries()].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  const path = url.pathname.replace(/^\//, '');
  return pairs.length === 0 ? path : `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

function expectModelCounts(summary: Awaited<ReturnType<typeof crawl>>['summary'], records: PageRecord[]): void {
  // 28 pages: index, about, 20 chapters, 6 catalog query variants (orphan.html is never linked).
  expect(model.expected).toEqual({ uniquePages: 28, enqueueAttempts: 240, duplicatesFiltered: 212 });
  expect(summary.uniquePages).toBe(model.expected.uniquePages);
  expect(summary.pagesHandled).toBe(model.expected.uniquePages);
  expect(summary.duplicatePagesHandled).toBe(0);
  expect(summary.requestsOffered).toBe(model.expected.enqueueAttempts);
  expect(summary.requestsEnqueued).toBe(model.expected.uniquePages);
  expect(summary.duplicatesFiltered).toBe(model.expected.duplicatesFiltered);
  expect(summary.everyPageExactlyOnce).toBe(true);
  expect(summary.everyPageRecordedOnce).toBe(true);
  expect(records.map(keyOf).sort()).toEqual([...model.reachablePages].sort());
  expect(records.some((r) => /utm_|fbclid|gclid|#/.test(r.url))).toBe(false);
  // Each of the 28 URLs was requested from the server once: no variant (query order, fragment, tracking) slipped through.
  expect(summary.retries.count).toBe(0);
  expect(summary.httpFetches).toEqual({ total: 28, pathsFetchedMoreThanOnce: 0, refetched: [] });
}

describe('generated demo site: the exact counts of its model', () => {
  it('--dedup set: 28 pages, 240 offered, 212 duplicates filtered, 28 fingerprints in the Redis set', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const { summary, records } = await crawl(dir, ['--demo', '--dedup', 'set', '--workers', '2', '--keep-keys'], { REDIS_URL: redisUrl });
    expect(summary.mode).toBe('redis');
    expectModelCounts(summary, records);
    expect(summary.dedupStore?.itemsAdded).toBe(28);
    expect(summary.dedupStore?.fillRatio).toBe(0);
    // One figure: the queue's crawl-wide count (what `crawlee-redis stats`, the dashboard and the metrics show) is
    // the summary's, and the store's own count is its share (links to pages already handled).
    const redis = new Redis(redisUrl);
    const admin = new RedisQueueAdmin({ redis, keyPrefix: 'crawlee', name: summary.queueName });
    try {
      const crawlStats = await admin.crawlStats();
      expect(crawlStats.alreadyPresent).toBe(summary.duplicatesFiltered);
      expect(crawlStats.dedupFiltered).toBe(summary.dedupStore?.filtered);
      // The store's share depends on timing: a link to a page already handled reaches the store only when no worker's
      // own request cache answered it first (with idle back-off, one worker may crawl most of 28 pages alone).
      expect(summary.dedupStore!.filtered).toBeGreaterThanOrEqual(0);
      expect(summary.dedupStore!.filtered).toBeLessThanOrEqual(summary.duplicatesFiltered);
      expect((await admin.storage()).handledRequests).toBe('store');
    } finally {
      await admin.dropHashTag();
      redis.disconnect();
    }
  });

  it('--dedup none, nothing at --redis: starts its own redis-server, same counts, no dedup store', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const port = await freePort();
    const { summary, records, result } = await crawl(dir, ['--demo', '--dedup', 'none', '--workers', '2', '--redis', `redis://127.0.0.1:${port}`]);
    expect(result.stdout + result.stderr).toMatch(/nothing answers at redis:\/\/127\.0\.0\.1:\d+; starting redis-server/);
    expect(summary.mode).toBe('redis-started-for-run');
    expect(summary.redisUrl).not.toBe(`redis://127.0.0.1:${port}`);
    expectModelCounts(summary, records);
    // The queue's own atomic uniqueKey check is the only dedup left.
    expect(summary.dedupStore).toBeNull();
    // The server the run started is gone.
    const { probeRedis } = await import('../src/redis/probe-redis.js');
    expect((await probeRedis(summary.redisUrl!, 500)).kind).toBe('refused');
  });

  it('a fresh machine (no docs, no Redis, no redis-server): says how to get them, crawls the demo site in one process', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const port = await freePort();
    const { summary, records, result } = await crawl(dir, ['--redis', `redis://127.0.0.1:${port}`], {
      POSTGRES_DOCS_DIR: '/nonexistent/postgresql-doc-15/html',
      REDIS_SERVER_BIN: '/nonexistent/redis-server',
    });
    const said = result.stdout + result.stderr;
    expect(said).toContain('apt-get install postgresql-doc-15');
    expect(said).toContain('no redis-server installed');
    expect(said).toContain('crawling in ONE process');
    expect(summary.mode).toBe('memory-one-process');
    expect(summary.redisUrl).toBeNull();
    expectModelCounts(summary, records);
    expect(summary.dedupStore?.itemsAdded).toBe(28);
    expect(records.every((r) => r.worker === 'in-process')).toBe(true);
  });
});

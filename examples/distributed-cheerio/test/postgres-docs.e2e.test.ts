import { existsSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { POSTGRES_DOCS_DIR } from '../src/options.js';
import { walkSiteLinks } from '../src/site/walk-links.js';
import type { PageRecord } from '../src/worker/page-record.js';
import { crawl, outputDir } from './helpers/run-cli.js';

// The example's real input. Missing docs fail the suite with the fix, never skip it.
if (!existsSync(POSTGRES_DOCS_DIR)) {
  throw new Error(`${POSTGRES_DOCS_DIR} is missing: apt-get install -y postgresql-doc-15 (the .ci/run script does)`);
}

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
let expectedFiles: string[];

beforeAll(() => {
  // The independent count: every HTML file reachable from index.html by same-host links, found with cheerio alone.
  expectedFiles = walkSiteLinks(POSTGRES_DOCS_DIR).files;
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function pathsOf(records: PageRecord[]): string[] {
  return records.map((r) => decodeURIComponent(new URL(r.url).pathname).replace(/^\//, '')).sort();
}

async function runKeysLeft(queueName: string): Promise<string[]> {
  const redis = new Redis(redisUrl);
  try {
    return await redis.keys(`*{crawlee:rq:${queueName}}*`);
  } finally {
    redis.disconnect();
  }
}

function expectEachPageOnce(records: PageRecord[]): void {
  expect(new Set(records.map((r) => r.fingerprint)).size).toBe(records.length);
  expect(new Set(records.map((r) => r.url)).size).toBe(records.length);
  for (const record of records) {
    expect(record.fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(record.url).not.toContain('#');
    expect(record.worker).toMatch(/^worker-\d+$/);
  }
}

describe('PostgreSQL docs, 2 workers on one Redis', () => {
  it('crawls every page reachable from index.html exactly once', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const { summary, records, result } = await crawl(dir, ['--workers', '2', '--site', POSTGRES_DOCS_DIR], { REDIS_URL: redisUrl });

    expect(expectedFiles.length).toBeGreaterThan(1000);
    expect(summary.mode).toBe('redis');
    expect(summary.uniquePages).toBe(expectedFiles.length);
    expect(summary.pagesHandled).toBe(expectedFiles.length);
    expect(summary.duplicatePagesHandled).toBe(0);
    expect(summary.everyPageRecordedOnce).toBe(true);
    expect(summary.everyPageExactlyOnce).toBe(summary.pagesFetchedTwice === 0);
    expect(summary.queue).toMatchObject({ handled: expectedFiles.length, pending: 0, locked: 0, deadLetters: 0 });
    expect(summary.dedupStore?.itemsAdded).toBe(expectedFiles.length);
    expect(summary.duplicatesFiltered).toBe(summary.requestsOffered - expectedFiles.length);
    expect(summary.workers.map((w) => w.worker)).toEqual(['worker-1', 'worker-2']);
    expect(summary.workers.every((w) => w.pages > 0 && w.exit === 'finished')).toBe(true);
    expect(summary.workers.reduce((n, w) => n + w.pages, 0)).toBe(expectedFiles.length);
    expect(summary.redisUsedMemoryBytes).toBeGreaterThan(0);
    expect(summary.requestsPerSecond).toBeGreaterThan(0);
    // The static server saw each page once; only a request retried after a failed attempt (a timeout when the
    // machine is overloaded) is fetched again, and the summary names it.
    expect(summary.httpFetches!.total).toBeGreaterThanOrEqual(expectedFiles.length);
    expect(summary.httpFetches!.total).toBeLessThanOrEqual(expectedFiles.length + summary.retries.count);
    expect(summary.pagesFetchedTwice).toBeLessThanOrEqual(summary.retries.urls.length);

    expect(pathsOf(records)).toEqual(expectedFiles);
    expectEachPageOnce(records);
    expect(records.find((r) => r.url.endsWith('/index.html'))?.title).toMatch(/PostgreSQL 15/);
    expect(result.stdout).toMatch(/progress: handled \d+\/\d+ \| pending \d+ \| locked \d+ \| duplicates filtered \d+/);
    expect(result.stdout).toMatch(/every page crawled (exactly once|, each once in the output)/);
    // A per-run queue leaves nothing behind in the shared Redis.
    expect(await runKeysLeft(summary.queueName)).toEqual([]);
  });

  it('with one worker SIGKILLed mid-run: every page crawled, each once in the output, re-fetches <= its concurrency', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const concurrency = 8;
    const { summary, records } = await crawl(
      dir,
      ['--workers', '2', '--site', POSTGRES_DOCS_DIR, '--kill-one-worker-after', '250', '--lock-secs', '20', '--concurrency', String(concurrency)],
      { REDIS_URL: redisUrl },
    );

    expect(summary.killedWorker?.worker).toBe('worker-1');
    expect(summary.killedWorker?.afterPages).toBeGreaterThanOrEqual(250);
    expect(summary.workers.find((w) => w.worker === 'worker-1')?.exit).toBe('killed (SIGKILL)');
    expect(summary.workers.find((w) => w.worker === 'worker-3')?.exit).toBe('finished'); // the replacement
    expect(summary.allPagesCrawled).toBe(true);
    expect(summary.queue).toMatchObject({ handled: expectedFiles.length, pending: 0, locked: 0, deadLetters: 0 });
    expect(summary.uniquePages).toBe(expectedFiles.length);
    expect(summary.pagesHandled).toBe(expectedFiles.length + summary.duplicatePagesHandled);
    // Only what the killed worker had in flight is fetched again (retries after timeouts are told apart).
    expect(summary.pagesFetchedTwiceAfterKill).toBeLessThanOrEqual(concurrency);
    expect(summary.duplicatePagesHandled).toBeLessThanOrEqual(concurrency);
    expect(summary.httpFetches!.total).toBeLessThanOrEqual(expectedFiles.length + concurrency + summary.retries.count);

    expect(pathsOf(records)).toEqual(expectedFiles);
    expectEachPageOnce(records);
  });
});

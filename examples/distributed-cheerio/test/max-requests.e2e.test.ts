import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { decodeRequest } from 'crawlee-redis-queue/internal';
import { Redis } from 'ioredis';
import { crawl, outputDir } from './helpers/run-cli.js';
import { dropQueueKeys } from './helpers/spawn-cli.js';

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
const queues: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const q of queues) await dropQueueKeys(redisUrl, q);
});

/** The stored requests of a queue that are not handled (`data` holds only those), as the queue reads them back. */
async function pendingRequests(queue: string): Promise<Array<{ retryCount: number; errorMessages: string[]; handledAt?: string }>> {
  const redis = new Redis(redisUrl);
  try {
    // As bytes: a record whose uniqueKey is a fingerprint holds its 20 raw bytes.
    const stored = await redis.hgetallBuffer(`{crawlee:rq:${queue}}:data`);
    return Object.entries(stored).map(([id, raw]) => {
      const decoded = decodeRequest(raw, id);
      if (!decoded.ok) throw new Error(`unreadable stored request ${id}: ${decoded.reason}`);
      return decoded.request as unknown as { retryCount: number; errorMessages: string[]; handledAt?: string };
    });
  } finally {
    redis.disconnect();
  }
}

describe('--max-requests on a named queue, then a resume', () => {
  it('puts the over-budget requests back untouched, and the resume crawls every page and says so', async () => {
    const queue = `maxreq-${randomUUID().slice(0, 8)}`;
    queues.push(queue);
    const dir = outputDir();
    dirs.push(dir);
    const args = ['--demo', '--queue', queue, '--redis', redisUrl, '--workers', '2', '--concurrency', '4'];

    const first = await crawl(dir, [...args, '--max-requests', '5']);
    expect(first.summary.stoppedByMaxRequests).toBe(true);
    expect(first.records).toHaveLength(5);
    const admin = new RedisQueueAdmin({ redis: redisUrl, name: queue });
    try {
      const stats = await admin.stats();
      // Every handled request was recorded: none of the over-budget ones in flight was marked handled.
      expect(stats.handled).toBe(first.summary.uniquePages + first.summary.httpErrors);
      expect(stats.pending).toBeGreaterThan(0);
      const pending = await pendingRequests(queue);
      expect(pending.length).toBe(stats.pending);
      for (const request of pending) {
        expect(request.retryCount).toBe(0);
        expect(request.errorMessages).toEqual([]);
      }
    } finally {
      await admin.close();
    }
    expect(first.result.stdout + first.result.stderr).toContain('stopped by --max-requests as asked');

    const resume = await crawl(dir, args);
    const text = resume.result.stdout + resume.result.stderr;
    expect(resume.summary.stoppedByMaxRequests).toBe(false);
    expect(resume.summary.queue.pending).toBe(0);
    expect(resume.summary.queue.handled).toBe(resume.records.length + resume.summary.httpErrors);
    expect(resume.summary.allPagesCrawled).toBe(true);
    expect(text).not.toContain('--max-requests');
    expect(text).toMatch(/result +every page crawled/);
    // The per-worker lines are this run's: the first run's worker-1 and worker-2 had the same names.
    expect(resume.summary.workers.map((w) => w.worker)).toHaveLength(2);
    expect(resume.summary.workers.reduce((sum, w) => sum + w.pages, 0)).toBe(resume.summary.pagesThisRun);
    expect(resume.summary.pagesThisRun).toBe(resume.summary.pagesHandled - 5);
    // One definition of duplicates filtered: the resume's re-offered start URL is no duplicate of the crawl's, for the
    // summary as for the queue's crawl stats (`crawlee-redis stats`, the metrics).
    const after = new RedisQueueAdmin({ redis: redisUrl, name: queue });
    try {
      expect(resume.summary.duplicatesFiltered).toBe((await after.crawlStats()).alreadyPresent);
    } finally {
      await after.close();
    }
  });
});

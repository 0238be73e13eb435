import { log } from 'crawlee';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MergedRecords } from '../src/coordinator/merge-records.js';
import { buildSummary, type SummaryInput } from '../src/coordinator/summary.js';
import { printSummary } from '../src/coordinator/print-summary.js';
import type { QueueCounts } from '../src/coordinator/fleet-snapshot.js';
import { PageClock } from '../src/coordinator/page-clock.js';

function input(queue: QueueCounts, pages: number, counters: Record<string, number> = {}): SummaryInput {
  const merged: MergedRecords = {
    pages: Array.from({ length: pages }, (_, i) => ({ url: `http://127.0.0.1:1/p${i}`, title: '', worker: 'w1', fingerprint: `f${i}` })),
    recordsRead: pages,
    perWorker: new Map([['w1', pages]]),
    duplicated: new Map(),
  };
  return {
    mode: 'redis',
    redisUrl: 'redis://:secret@127.0.0.1:6391',
    keyPrefix: 'shop',
    queueName: 'q1',
    dedup: 'bloom',
    startUrl: 'http://127.0.0.1:1/',
    snapshot: { queue, counters },
    merged,
    exits: [],
    durationSecs: 1,
    crawlSecs: 1,
    pagesThisRun: merged.recordsRead,
    redisUsedMemoryBytes: null,
    runKeysMemoryBytes: null,
    fetches: null,
    killed: null,
    retried: [],
    output: 'pages.jsonl',
  };
}

function printed(summary: ReturnType<typeof buildSummary>): string {
  const lines: string[] = [];
  const spy = vi.spyOn(log, 'info').mockImplementation((line: string) => void lines.push(line));
  printSummary(summary);
  spy.mockRestore();
  return lines.join('\n');
}

afterEach(() => vi.restoreAllMocks());

/** The summary of a run on one standalone Redis. */
function plain_(i: SummaryInput): ReturnType<typeof buildSummary> {
  return buildSummary(i);
}

describe('the summary', () => {
  it('names dead letters as the reason pages are missing, with the command that lists them, and no negative count', () => {
    const summary = buildSummary(input({ total: 44, pending: -2, locked: 0, handled: 46, deadLetters: 3 }, 43));
    expect(summary.queue.pending).toBe(0);
    expect(summary.allPagesCrawled).toBe(false);
    const text = printed(summary);
    expect(text).not.toMatch(/-\d/);
    expect(text).toContain('pending 0');
    expect(text).toMatch(/result +NOT every page was crawled: 3 dead letters \(queue entries no worker could read/);
    expect(text).toContain(
      "npx --no crawlee-redis dead-letters q1 --redis 'redis://:***@127.0.0.1:6391' --key-prefix shop",
    );
    expect(text).not.toContain('secret');
  });

  it('a worker that exited with an error makes the run incomplete, even when the queue reads empty (a Redis that lost its data)', () => {
    const base = input({ total: 0, pending: 0, locked: 0, handled: 0, deadLetters: 0 }, 774);
    const exit = { pid: 1, signal: null, killedByCoordinator: false, stopped: false, released: 0 };
    const summary = buildSummary({ ...base, exits: [{ ...exit, worker: 'w1', code: 0 }, { ...exit, worker: 'w2', code: 1 }] });
    expect(summary.allPagesCrawled).toBe(false);
    expect(summary.failedWorkers).toEqual(['w2']);
    expect(printed(summary)).toMatch(/result +NOT every page was crawled: w2 failed \(see the errors above\)/);
    // A worker killed by a signal (the kill tests) or stopped on purpose is not a failure of the run by itself.
    const killed = buildSummary({ ...base, exits: [{ ...exit, worker: 'w1', code: null, signal: 'SIGKILL' }] });
    expect(killed.failedWorkers).toEqual([]);
  });

  it('a crawl that recorded no page (the start page answered 404) is not a success', () => {
    const summary = buildSummary(input({ total: 1, pending: 0, locked: 0, handled: 1, deadLetters: 0 }, 0, { httpErrors: 1 }));
    expect(summary.allPagesCrawled).toBe(false);
    expect(summary.everyPageExactlyOnce).toBe(false);
    expect(printed(summary)).toMatch(/result +NOT crawled: no page recorded, the start page answered an HTTP error/);
  });

  it("shows the queue's own memory per request and its handledRequests mode", () => {
    const summary = buildSummary({ ...input({ total: 40, pending: 0, locked: 0, handled: 40, deadLetters: 0 }, 40), queueMemory: { bytes: 4000, handledRequests: 'key' } });
    expect(summary.queueMemory).toEqual({ bytes: 4000, handledRequests: 'key' });
    expect(printed(summary)).toMatch(/queue memory +3\.9 KiB \(100 B per request\), handled requests kept as 'key'/);
  });

  it('says the shard count of a sharded queue and that the Redis is a Cluster, and nothing of it for one shard', () => {
    const done = input({ total: 40, pending: 0, locked: 0, handled: 40, deadLetters: 0 }, 40);
    const sharded = buildSummary({ ...done, shards: 12, cluster: true });
    expect(sharded).toMatchObject({ shards: 12, redisCluster: true });
    expect(printed(sharded)).toMatch(/queue +handled 40, pending 0, locked 0, dead letters 0 \(sums over 12 shards on the Redis Cluster\)/);
    expect(printed(sharded)).toMatch(/Redis memory +.* used by the cluster's masters/);
    // The crawlee-redis CLI reaches a Cluster through the same seed nodes.
    expect(sharded.deadLettersCommand).toMatch(/crawlee-redis dead-letters q1/);
    expect(plain_(done).deadLettersCommand).toMatch(/crawlee-redis dead-letters q1/);
    const plain = plain_(done);
    expect(plain).toMatchObject({ shards: 1, redisCluster: false });
    expect(printed(plain)).not.toMatch(/shards|cluster/);
  });

  it("a resume: requests/s counts this run's pages only, not the earlier runs' records in the output", () => {
    // 1,174 records in the output, of which this run recorded 166 in 8.29 s.
    const resumed = buildSummary({ ...input({ total: 1174, pending: 0, locked: 0, handled: 1174, deadLetters: 0 }, 1174), crawlSecs: 8.29, pagesThisRun: 166 });
    expect(resumed).toMatchObject({ pagesHandled: 1174, pagesThisRun: 166, requestsPerSecond: 20 });
    // The time belongs to this run's pages; the earlier runs' come after it.
    expect(printed(resumed)).toMatch(/requests\/s +20 \(166 pages this run in 8\.29 s; 1 s with start-up; 1008 more by earlier runs\)/);
  });

  it("a resume: the per-worker lines are this run's workers and this run's pages (earlier runs had a worker-1 too)", () => {
    const base = input({ total: 1169, pending: 0, locked: 0, handled: 1169, deadLetters: 0 }, 1169);
    // The records: 400 by the first run's workers (a worker-3 replaced a killed one), 769 by this run's worker-1 and worker-2.
    const merged = { ...base.merged, perWorker: new Map([['worker-1', 601], ['worker-2', 568], ['worker-3', 0]]) };
    const exit = { pid: 1, code: 0, signal: null, killedByCoordinator: false, stopped: false, released: 0 };
    const counters = { pages: 1169, 'pages:worker-1': 601, 'pages:worker-2': 568 };
    const summary = buildSummary({
      ...base,
      merged,
      snapshot: { ...base.snapshot, counters },
      exits: [{ ...exit, worker: 'worker-1' }, { ...exit, worker: 'worker-2' }],
      countersAtStart: { pages: 400, 'pages:worker-1': 201, 'pages:worker-2': 199 },
      pagesThisRun: 769,
    });
    expect(summary.workers).toEqual([
      { worker: 'worker-1', pages: 400, exit: 'finished' },
      { worker: 'worker-2', pages: 369, exit: 'finished' },
    ]);
    expect(summary.workers.reduce((a, w) => a + w.pages, 0)).toBe(summary.pagesThisRun);
    expect(printed(summary)).toMatch(/worker-1 +400 pages/);
  });
});

describe('PageClock', () => {
  it('times and counts only the pages recorded after it started (a resume starts from the earlier runs\' count)', async () => {
    let pages = 1008;
    const clock = new PageClock(() => Promise.resolve(pages));
    await clock.start();
    expect(clock.pages).toBe(0);
    expect(clock.crawlSecs).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    pages = 1100;
    await new Promise((resolve) => setTimeout(resolve, 600));
    pages = 1174;
    await clock.stop();
    expect(clock.pages).toBe(166);
    // From the first page of this run to the last: well under the time since start (300 ms of nothing first).
    expect(clock.crawlSecs).toBeGreaterThan(0.25);
    expect(clock.crawlSecs).toBeLessThan(1.3);
  });
});

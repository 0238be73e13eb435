import type { DedupStats } from 'crawlee-bloom-dedup';
import type { DedupMode } from '../options.js';
import { clampCounts, duplicatesFiltered, type FleetSnapshot, type QueueCounts } from './fleet-snapshot.js';
import { crawleeRedisCommand } from '../crawlee-redis-command.js';
import { maskInText, maskUrl } from '../mask-credentials.js';
import type { MergedRecords } from './merge-records.js';
import type { WorkerExit } from './worker-fleet.js';

/** How the run reached its storage. */
export type RunMode = 'redis' | 'redis-started-for-run' | 'memory-one-process';

/** Everything the summary prints; `--summary-json` writes this object. */
export interface RunSummary {
  mode: RunMode;
  redisUrl: string | null;
  queueName: string;
  dedup: DedupMode;
  startUrl: string;
  /** Distinct pages (fingerprints) recorded. */
  uniquePages: number;
  /** Page records written by all workers, duplicates included. */
  pagesHandled: number;
  /** Records of pages that were recorded more than once (fetched a second time after a kill). */
  duplicatePagesHandled: number;
  /** Pages fetched more than once: from the static server's own count of GETs per URL when the run serves the
   * folder (a page whose handler was cut off by a kill was fetched but never recorded), else from the records. */
  pagesFetchedTwice: number;
  /** Of those, pages whose request never failed: fetched again only because the worker holding it was killed. */
  pagesFetchedTwiceAfterKill: number;
  /** Failed attempts that were retried, how many of them were refused connections, and the URLs. */
  retries: { count: number; refused: number; urls: string[] };
  /** Duplicates filtered: requests offered to the queue that it did not take as new, whoever answered (Crawlee's
   * request cache, the queue, the dedup store). The same figure as `crawlee-redis stats` (`duplicates filtered`),
   * the dashboard and the metrics; `dedupStore.filtered` is the dedup store's share of it. */
  duplicatesFiltered: number;
  requestsOffered: number;
  requestsEnqueued: number;
  /** Per worker of this run: pages it recorded in this run and how the process ended. */
  workers: Array<{ worker: string; pages: number; exit: string }>;
  queue: QueueCounts;
  /** The queue's shard count (crawlee-redis-queue's `shards`; 1 for the one-process fallback); the queue counts are
   * the sums over the shards. */
  shards: number;
  /** True when the run's Redis is a Redis Cluster. */
  redisCluster: boolean;
  dedupStore: DedupStats | null;
  failedRequests: number;
  httpErrors: number;
  stoppedByMaxRequests: boolean;
  /** The run was stopped by Ctrl-C / SIGTERM (`'SIGINT'`, `'SIGTERM'`), or null. Its workers handed their locks back. */
  interrupted: NodeJS.Signals | null;
  /** Wall time from starting the workers to the last one's exit (includes process start-up and lock waits). */
  durationSecs: number;
  /** Seconds from the first page this run recorded to the last. */
  crawlSecs: number;
  /** Pages this run recorded (on a resume, without the earlier runs' pages that `pagesHandled` includes). */
  pagesThisRun: number;
  /** Pages this run recorded per second of its crawl time (`pagesThisRun / crawlSecs`). */
  requestsPerSecond: number;
  /** `used_memory` of the Redis server at the end of the crawl (null without Redis). */
  redisUsedMemoryBytes: number | null;
  /** `MEMORY USAGE` summed over this run's keys (queue, dedup store, counters). */
  runKeysMemoryBytes: number | null;
  /** The queue's own Redis memory as the queue reports it (`RedisQueueAdmin.storage()`: its keys, index buckets
   * sampled) and what it keeps of a handled request (`handledRequests`); null without Redis. */
  queueMemory: { bytes: number | null; handledRequests: string } | null;
  /** GET requests the static server answered, and paths it served more than once. */
  httpFetches: { total: number; pathsFetchedMoreThanOnce: number; refetched: string[] } | null;
  killedWorker: { worker: string; afterPages: number; pagesItRecorded: number } | null;
  /** No request left pending or locked, none failed, none in the dead-letter hash, no budget stop, and at least one
   * page recorded (a start page that answers an HTTP error crawls nothing). */
  allPagesCrawled: boolean;
  /** Workers that exited with an error code (not killed or stopped on purpose); any makes the run incomplete. */
  failedWorkers: string[];
  /** allPagesCrawled, and no page recorded twice (the merged output never has duplicates either way). */
  everyPageRecordedOnce: boolean;
  /** everyPageRecordedOnce, and no page fetched twice. */
  everyPageExactlyOnce: boolean;
  output: string;
  /** The `crawlee-redis` command that lists the queue's dead letters (null without Redis; a Redis Cluster's seed
   * nodes as the run was given them). */
  deadLettersCommand: string | null;
  /** With `--results redis`: the Redis dataset the workers pushed their records into (named after the queue), its
   * record count (duplicates included), and whether it was kept (a named or interrupted queue, `--keep-keys`) or
   * removed with the finished per-run queue; `null` with `--results files`. */
  resultsDataset: { name: string; records: number; kept: boolean; exportCommand: string | null } | null;
  /** Fleet politeness (Redis runs; null for the one-process fallback): the limits, the most hosts waiting at once
   * and the longest wait seen by the progress readings, 429/503 answers, and hosts backed off. */
  politeness: {
    hostDelaySecs: number;
    maxPerHost: number | null;
    hostsWaitingPeak: number;
    longestWaitSecsPeak: number;
    throttled: number;
    hostBackoffs: number;
  } | null;
}

export interface SummaryInput {
  mode: RunMode;
  redisUrl: string | null;
  queueName: string;
  dedup: DedupMode;
  startUrl: string;
  snapshot: FleetSnapshot;
  merged: MergedRecords;
  exits: WorkerExit[];
  durationSecs: number;
  crawlSecs: number;
  /** Pages this run recorded (the page counter less its value when the run started). */
  pagesThisRun: number;
  /** The fleet's counters when this run started (a resume: the earlier runs' tallies, `pages:<worker>` included), so
   * the per-worker lines count this run's pages only; absent for a run that started from nothing. */
  countersAtStart?: Record<string, number>;
  redisUsedMemoryBytes: number | null;
  runKeysMemoryBytes: number | null;
  queueMemory?: { bytes: number | null; handledRequests: string } | null;
  fetches: Map<string, number> | null;
  killed: { worker: string; afterPages: number } | null;
  /** URLs that were retried after a failed attempt (RunCounters.retried). */
  retried: string[];
  output: string;
  /** `--results redis`: the dataset, the key prefix, and whether it is kept after the run. */
  results?: { dataset: string; keyPrefix: string; kept: boolean };
  /** The signal that stopped the run, if any. */
  interrupted?: NodeJS.Signals | null;
  /** The key prefix of the queue (Redis runs), for the commands the summary prints. */
  keyPrefix?: string;
  /** Redis runs: the politeness limits and the peaks the progress readings saw. */
  politeness?: { hostDelaySecs: number; maxPerHost: number | null; hostsWaiting: number; longestWaitSecs: number };
  /** The queue's shard count (default 1). */
  shards?: number;
  /** The run's Redis is a Redis Cluster (default false). */
  cluster?: boolean;
}

/** Builds the summary from what the run measured. */
export function buildSummary(input: SummaryInput): RunSummary {
  const { snapshot, merged } = input;
  const c = snapshot.counters;
  const duplicatePagesHandled = merged.recordsRead - merged.pages.length;
  const failedRequests = c.failed ?? 0;
  const stoppedByMaxRequests = (c.overBudget ?? 0) > 0;
  const q = clampCounts(snapshot.queue);
  const retried = new Set(input.retried.map((url) => new URL(url).pathname + new URL(url).search));
  const refetchedRecords = [...merged.duplicated.keys()]
    .map((fp) => merged.pages.find((p) => p.fingerprint === fp)?.url ?? '')
    .filter((url) => url !== '')
    .map((url) => new URL(url).pathname + new URL(url).search);
  const refetched = new Set(
    input.fetches === null ? refetchedRecords : [...input.fetches].filter(([, n]) => n > 1).map(([path]) => path),
  );
  const refetchedAfterKill = [...refetched].filter((path) => !retried.has(path)).length;
  const pagesFetchedTwice = Math.max(merged.duplicated.size, refetched.size);
  // A worker that exited with an error (not killed or stopped on purpose) may have lost its view of the queue (a
  // Redis that came back empty, a queue dropped under it): the counters then read 0 pending and cannot vouch for
  // the crawl, so such a run is never reported complete.
  const failedWorkers = input.exits.filter((e) => !e.killedByCoordinator && !e.stopped && e.code !== null && e.code !== 0).map((e) => e.worker);
  const allPagesCrawled =
    failedWorkers.length === 0 &&
    q.pending === 0 &&
    (q.locked ?? 0) === 0 &&
    q.deadLetters === 0 &&
    failedRequests === 0 &&
    !stoppedByMaxRequests &&
    merged.pages.length > 0;
  // This run's workers: a resumed queue's records also name the earlier runs' workers (worker-1 again, too).
  const workerNames = new Set(input.exits.length > 0 ? input.exits.map((e) => e.worker) : merged.perWorker.keys());
  const pagesOf = pagesThisRunOf(input);
  const workers = [...workerNames].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).map((worker) => {
    const exit = input.exits.find((e) => e.worker === worker);
    const how =
      exit === undefined
        ? 'finished'
        : exit.killedByCoordinator
          ? 'killed (SIGKILL)'
          : exit.stopped
            ? exit.stopReason === 'site-gone'
              ? "stopped (the seeding run's site refuses connections)"
              : 'stopped as asked'
            : exit.code === 0
              ? 'finished'
              : `failed (${exit.signal ?? exit.code})`;
    return { worker, pages: pagesOf(worker), exit: how };
  });
  return {
    mode: input.mode,
    redisUrl: input.redisUrl === null ? null : maskUrl(input.redisUrl),
    queueName: input.queueName,
    dedup: input.dedup,
    startUrl: maskUrl(input.startUrl),
    uniquePages: merged.pages.length,
    pagesHandled: merged.recordsRead,
    duplicatePagesHandled,
    pagesFetchedTwice,
    pagesFetchedTwiceAfterKill: input.killed === null ? 0 : refetchedAfterKill,
    retries: { count: c.retries ?? 0, refused: c.refusedRetries ?? 0, urls: input.retried.slice(0, 50).map(maskUrl) },
    duplicatesFiltered: duplicatesFiltered(c),
    requestsOffered: c.offered ?? 0,
    requestsEnqueued: c.enqueued ?? 0,
    workers,
    queue: q,
    shards: input.shards ?? 1,
    redisCluster: input.cluster ?? false,
    dedupStore: snapshot.store ?? null,
    failedRequests,
    httpErrors: c.httpErrors ?? 0,
    stoppedByMaxRequests,
    interrupted: input.interrupted ?? null,
    durationSecs: Math.round(input.durationSecs * 100) / 100,
    crawlSecs: Math.round(input.crawlSecs * 100) / 100,
    pagesThisRun: input.pagesThisRun,
    requestsPerSecond: input.crawlSecs > 0 ? Math.round((input.pagesThisRun / input.crawlSecs) * 10) / 10 : 0,
    redisUsedMemoryBytes: input.redisUsedMemoryBytes,
    runKeysMemoryBytes: input.runKeysMemoryBytes,
    queueMemory: input.queueMemory ?? null,
    httpFetches:
      input.fetches === null
        ? null
        : {
            total: [...input.fetches.values()].reduce((a, b) => a + b, 0),
            pathsFetchedMoreThanOnce: [...input.fetches.values()].filter((n) => n > 1).length,
            refetched: [...input.fetches].filter(([, n]) => n > 1).slice(0, 50).map(([path, n]) => `${path} x${n}`),
          },
    killedWorker:
      input.killed === null
        ? null
        : { ...input.killed, pagesItRecorded: pagesOf(input.killed.worker) },
    allPagesCrawled,
    failedWorkers,
    everyPageRecordedOnce: allPagesCrawled && duplicatePagesHandled === 0,
    everyPageExactlyOnce: allPagesCrawled && duplicatePagesHandled === 0 && pagesFetchedTwice === 0,
    output: input.output,
    // The crawlee-redis CLI takes a Cluster's seed nodes as the run does (URLs separated by commas).
    deadLettersCommand:
      input.redisUrl === null
        ? null
        : crawleeRedisCommand(['dead-letters', input.queueName], {
            redisUrl: maskInText(input.redisUrl),
            keyPrefix: input.keyPrefix ?? input.results?.keyPrefix ?? 'crawlee',
          }),
    resultsDataset:
      input.results === undefined
        ? null
        : {
            name: input.results.dataset,
            records: merged.recordsRead,
            kept: input.results.kept,
            exportCommand: input.results.kept
              ? crawleeRedisCommand(['export', input.results.dataset, '--format', 'jsonl', '--output', 'pages.jsonl'], {
                  redisUrl: maskInText(input.redisUrl ?? 'redis://127.0.0.1:6379'),
                  keyPrefix: input.results.keyPrefix,
                })
              : null,
          },
    politeness:
      input.politeness === undefined
        ? null
        : {
            hostDelaySecs: input.politeness.hostDelaySecs,
            maxPerHost: input.politeness.maxPerHost,
            hostsWaitingPeak: input.politeness.hostsWaiting,
            longestWaitSecsPeak: Math.round(input.politeness.longestWaitSecs * 10) / 10,
            throttled: c.throttled ?? 0,
            hostBackoffs: c.hostBackoffs ?? 0,
          },
  };
}

/**
 * Pages a worker recorded in this run. From its records when no earlier run recorded any; on a resume, from its
 * `pages:<worker>` counter less the counter's value at the start (the earlier runs' workers had the same names).
 */
function pagesThisRunOf(input: SummaryInput): (worker: string) => number {
  const start = input.countersAtStart;
  if (start === undefined || (start.pages ?? 0) === 0) return (worker) => input.merged.perWorker.get(worker) ?? 0;
  const now = input.snapshot.counters;
  return (worker) => Math.max(0, (now[`pages:${worker}`] ?? 0) - (start[`pages:${worker}`] ?? 0));
}

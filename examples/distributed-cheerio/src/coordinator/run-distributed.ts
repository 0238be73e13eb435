import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { log } from 'crawlee';
import { RedisQueueAdmin, type ProducerLease } from 'crawlee-redis-queue';
import { maskUrl } from '../mask-credentials.js';
import { openRedis } from '../redis/open-redis.js';
import type { RunOptions } from '../options.js';
import { openSharedQueue } from '../worker/open-queue.js';
import { reconnectTimeoutSecs, watchRedisLoss } from '../redis/redis-loss-watch.js';
import { RedisRunCounters } from '../worker/run-counters.js';
import type { FleetPoliteness } from '../worker/politeness.js';
import { runKeys } from '../worker/worker-config.js';
import { redisSnapshot } from './fleet-snapshot.js';
import { explainLockWait } from './lock-wait.js';
import { mergeRecords, writeJsonLines } from './merge-records.js';
import { PageClock } from './page-clock.js';
import { ProgressReporter } from './progress.js';
import { readQueueState, recordSeededSite } from './queue-state.js';
import { seedStartUrl } from './seed-start-url.js';
import { openRecordsDir, recordsDirOf, recordsFilesIn, removeRecordsDir } from './records-dir.js';
import { redisUsedMemory, runKeysMemory } from './redis-memory.js';
import { ResultsDataset } from './results-dataset.js';
import type { SiteSource } from './site-source.js';
import { buildSummary, type RunMode, type RunSummary } from './summary.js';
import { WorkerFleet } from './worker-fleet.js';

/** Pause between two worker forks at start-up, in milliseconds. */
const WORKER_START_GAP_MS = 100;
/** After a stop signal, when the coordinator checks that Redis still answers; if not, it exits without a summary
 * (workers give up handing back locks after 3 s themselves). */
const STOP_DEADLINE_MS = 5_000;
/** After Redis is gone for good, how long the coordinator waits for its workers (they stop on their own). */
const LOST_EXIT_GRACE_MS = 5_000;

/**
 * The distributed run: seed the shared queue (completely, before any worker starts, so no worker can find it empty
 * and finish while seeding is still going on), fork the workers, report progress from Redis, optionally SIGKILL one
 * worker and start a replacement, then merge the records of every run of the queue and summarise.
 */
export async function runDistributed(input: {
  options: RunOptions;
  mode: RunMode;
  redisUrl: string;
  /** True when `redisUrl` names a Redis Cluster (its seed nodes). */
  cluster: boolean;
  /** The queue's shard count (see queue-shards.ts). */
  shards: number;
  queueName: string;
  site: SiteSource;
  /** The politeness of the queue (see queue-politeness.ts); undefined for an existing queue created without it. */
  politeness: FleetPoliteness | undefined;
}): Promise<RunSummary> {
  const { options, site, queueName, politeness } = input;
  const shownUrl = maskUrl(input.redisUrl);
  // Said where the queue is named, so the log shows a sharded crawl and where it runs.
  const layout = `${input.cluster ? ' (Redis Cluster)' : ''}${input.shards > 1 ? ` in ${input.shards} shards` : ''}`;
  // Commands wait through a Redis restart; the reconnect budget bounds the wait (then one line, exit 1).
  const redis = openRedis({ url: input.redisUrl, cluster: input.cluster }, { maxRetriesPerRequest: null });
  // Set once the fleet exists: a Redis lost before that ends the run without workers to stop.
  const running: { fleet?: WorkerFleet } = {};
  watchRedisLoss(redis, 'coordinator', input.redisUrl, reconnectTimeoutSecs(), (error) => {
    log.error(error.message);
    running.fleet?.stopAll();
    const exit = () => process.exit(1);
    setTimeout(exit, LOST_EXIT_GRACE_MS);
    void running.fleet?.waitForAll().then(exit);
  });
  const keys = runKeys(options.keyPrefix, queueName);
  const admin = new RedisQueueAdmin({ redis, keyPrefix: options.keyPrefix, name: queueName });
  const { queue, store } = await openSharedQueue({
    redis,
    keyPrefix: options.keyPrefix,
    queueName,
    dedup: options.dedup,
    dedupKey: keys.dedupKey,
    lockSecs: options.lockSecs,
    shards: input.shards,
    ...(politeness !== undefined ? { politeness } : {}),
  });
  const counters = new RedisRunCounters(redis, keys.countersKey);
  const read = redisSnapshot(admin, counters, store, politeness === undefined ? undefined : () => queue.politenessStats());
  // --results redis: every worker pushes its records into the Redis dataset named after the queue.
  const results = options.results === 'redis' ? new ResultsDataset(redis, options.keyPrefix, queueName) : undefined;

  let incarnation: string;
  let lease: ProducerLease | undefined;
  // The origin of a folder served by the seeding run (this one, or the one a --join run joins on this machine).
  let servedOrigin = site.server?.origin ?? '';
  if (!options.join) {
    // The origin is stored before the first request: a rerun of this queue serves the folder there again.
    incarnation = (await recordSeededSite(redis, keys.hashTag, { source: site.source, origin: site.server?.origin ?? '' })).incarnation;
    // A producer lease from the seeding record until this run's workers are started: no worker (of this run, or of a
    // --join machine started meanwhile) finishes while it seeds, and a --join accepts the queue while the lease is
    // alive. It expires 30 s after a killed coordinator's last renewal.
    lease = await admin.openProducerLease({ leaseSecs: 30 });
    // The --max-requests budget is per run: a resume (with or without --max-requests) starts with a fresh one, so its
    // summary says why this run stopped, not why the previous one did.
    await redis.hdel(keys.countersKey, 'budget', 'overBudget');
    // Seeded through the same wrappers as every link, so the start page gets a fingerprint and a dedup key too.
    const before = await admin.stats();
    // The start-URL check (check-start-url.ts) was a request to that host too: the fleet's first one keeps the gap.
    if (options.startUrl !== undefined && politeness !== undefined && politeness.minDelaySecs > 0) {
      await queue.backOffHost(queue.hostKeyOf(site.startUrl), politeness.minDelaySecs);
    }
    await seedStartUrl(queue, counters, site.startUrl);
    if (before.total === 0) log.info(`queue "${queueName}" on ${shownUrl}${layout} seeded with ${maskUrl(site.startUrl)}`);
    else log.info(`resuming queue "${queueName}" on ${shownUrl}${layout}: ${before.handled} handled, ${before.pending} pending`);
  } else {
    const seeded = (await readQueueState(redis, admin, keys.hashTag)).site;
    incarnation = seeded?.incarnation ?? '';
    servedOrigin = seeded?.origin ?? '';
  }
  await results?.open();
  const recordsDir = results ? recordsDirOf(options.output, incarnation) : openRecordsDir(recordsDirOf(options.output, incarnation));

  const fleet = new WorkerFleet(
    {
      redisUrl: input.redisUrl,
      redisCluster: input.cluster,
      shards: input.shards,
      keyPrefix: options.keyPrefix,
      queueName,
      dedup: options.dedup,
      dedupKey: keys.dedupKey,
      countersKey: keys.countersKey,
      concurrency: options.concurrency,
      lockSecs: options.lockSecs,
      verbose: options.verbose,
      results: options.results,
      enqueueStrategy: options.enqueueStrategy,
      ...(politeness !== undefined ? { politeness } : {}),
      ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
      ...(servedOrigin !== '' ? { servedOrigin, servedByCoordinator: site.server !== null } : {}),
    },
    recordsDir,
    // Machines sharing a named queue would all have a worker-1; the host name tells their records apart.
    options.queueName === undefined ? '' : `${hostname()}/`,
    `${Date.now().toString(36)}-${randomBytes(2).toString('hex')}-`,
  );
  running.fleet = fleet;
  // The page counter is per queue: its value before the first worker starts is the earlier runs' (a resume).
  const clock = new PageClock(async () => Number((await redis.hget(keys.countersKey, 'pages')) ?? 0));
  const countersAtStart = await counters.read();
  await clock.start();
  const startedAt = Date.now();
  let interrupted: NodeJS.Signals | null = null;
  const stopOnSignal = (signal: NodeJS.Signals) => {
    interrupted = signal;
    log.warning('interrupted: stopping the workers (each hands its locks back)');
    fleet.stopAll();
    // A stop must take seconds whatever Redis does; a second signal ends the process at once (Node's default, the
    // handler is gone).
    // With Redis answering, the summary (merging every record) may take as long as it takes.
    const deadline = () => {
      if (redis.status === 'ready') return void setTimeout(deadline, 1000).unref();
      log.error(`interrupted: Redis at ${shownUrl} does not answer, so the locks cannot be handed back and no summary can be read; exiting (the locks expire, rerun with --queue ${queueName} to resume)`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    setTimeout(deadline, STOP_DEADLINE_MS).unref();
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  // One fork per event-loop turn, a little apart: a stop signal is handled between two forks (a synchronous loop
  // would fork the whole fleet before the handler runs), and 40 Node.js processes do not boot at once.
  for (let i = 0; i < options.workers && !fleet.isStopping; i++) {
    fleet.start();
    if (i + 1 < options.workers) await new Promise((resolve) => setTimeout(resolve, WORKER_START_GAP_MS));
  }
  await lease?.release();
  const progress = new ProgressReporter(
    read,
    options.progressSecs,
    () => fleet.alive,
    (locked, quietSecs) => explainLockWait(redis, options.keyPrefix, queueName, locked, quietSecs),
    input.shards,
  );
  progress.start();

  let killed: { worker: string; afterPages: number } | null = null;
  let chaos: NodeJS.Timeout | undefined;
  if (options.killOneWorkerAfter !== undefined) {
    const threshold = options.killOneWorkerAfter;
    let checking = false;
    chaos = setInterval(() => {
      if (checking || killed !== null) return;
      checking = true;
      void redis
        .hget(keys.countersKey, 'pages')
        .then((pages) => {
          if (killed === null && Number(pages ?? 0) >= threshold) {
            const result = fleet.killOneAndReplace();
            if (result !== undefined) killed = { worker: result.killed, afterPages: Number(pages) };
          }
        })
        .finally(() => (checking = false));
    }, 100);
  }

  try {
    await fleet.waitForAll();
  } finally {
    if (chaos !== undefined) clearInterval(chaos);
    await lease?.release();
    progress.stop();
    await clock.stop();
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
  const durationSecs = (Date.now() - startedAt) / 1000;
  if (options.killOneWorkerAfter !== undefined && killed === null && interrupted === null) {
    log.warning(`--kill-one-worker-after ${options.killOneWorkerAfter}: the crawl ended before that many pages; no worker was killed`);
  }

  const snapshot = await read();
  const redisUsedMemoryBytes = await redisUsedMemory(redis);
  const runKeysMemoryBytes = await runKeysMemory(redis, keys.hashTag);
  const storage = await admin.storage();
  const queueMemory = { bytes: storage.memoryBytes ?? null, handledRequests: storage.handledRequests };
  const merged = results ? await results.merge() : await mergeRecords(recordsFilesIn(recordsDir));
  writeJsonLines(options.output, merged.pages);
  // A queue named by the user belongs to the user (other machines may still use it), and an interrupted one is kept
  // for its resume; a finished per-run queue is removed, with its records (folder or Redis dataset).
  const removeRun = options.queueName === undefined && !options.keepKeys && interrupted === null;
  const summary = buildSummary({
    mode: input.mode,
    redisUrl: input.redisUrl,
    queueName,
    dedup: options.dedup,
    startUrl: site.startUrl,
    snapshot,
    merged,
    exits: fleet.exits,
    durationSecs,
    crawlSecs: clock.crawlSecs,
    pagesThisRun: clock.pages,
    countersAtStart,
    redisUsedMemoryBytes,
    runKeysMemoryBytes,
    queueMemory,
    fetches: site.server?.fetches ?? null,
    killed,
    retried: await counters.retried(),
    output: options.output,
    interrupted,
    keyPrefix: options.keyPrefix,
    shards: input.shards,
    cluster: input.cluster,
    ...(politeness !== undefined
      ? { politeness: { hostDelaySecs: politeness.minDelaySecs, maxPerHost: politeness.maxConcurrencyPerHost ?? null, ...progress.politenessPeak } }
      : {}),
    ...(results ? { results: { dataset: queueName, keyPrefix: options.keyPrefix, kept: !removeRun } } : {}),
  });

  if (removeRun) {
    // The queue with every shard, and every other key of its hash tag (dedup store, counters, seeding record), on
    // every master of a Cluster.
    await admin.dropHashTag();
    removeRecordsDir(recordsDir);
    await results?.delete();
  } else {
    const where = results ? `its records in the Redis dataset "${queueName}"` : `its records in ${recordsDir}`;
    const tags = input.shards > 1 ? `hash tag ${keys.hashTag} and its ${input.shards} shards' tags` : `hash tag ${keys.hashTag}`;
    log.info(`kept the Redis keys of queue "${queueName}" (${tags}) and ${where}`);
  }
  await store?.close();
  redis.disconnect();
  return summary;
}

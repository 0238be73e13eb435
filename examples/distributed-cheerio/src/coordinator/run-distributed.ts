import { hostname } from 'node:os';
import { log } from 'crawlee';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { Redis } from 'ioredis';
import { QueueHasNoRequestsError } from '../errors/queue-has-no-requests-error.js';
import type { RunOptions } from '../options.js';
import { countOffers } from '../worker/count-offers.js';
import { openSharedQueue } from '../worker/open-queue.js';
import { RedisRunCounters } from '../worker/run-counters.js';
import { runKeys } from '../worker/worker-config.js';
import { redisSnapshot } from './fleet-snapshot.js';
import { mergeRecords, writeJsonLines } from './merge-records.js';
import { PageClock } from './page-clock.js';
import { ProgressReporter } from './progress.js';
import { redisUsedMemory, runKeyNames, runKeysMemory } from './redis-memory.js';
import type { SiteSource } from './site-source.js';
import { buildSummary, type RunMode, type RunSummary } from './summary.js';
import { WorkerFleet } from './worker-fleet.js';

/** Pause between two worker forks at start-up, in milliseconds. */
const WORKER_START_GAP_MS = 100;

/**
 * The distributed run: seed the shared queue, fork the workers, report progress from Redis, optionally SIGKILL one
 * worker and start a replacement, then merge the records and summarise.
 */
export async function runDistributed(input: {
  options: RunOptions;
  mode: RunMode;
  redisUrl: string;
  queueName: string;
  site: SiteSource;
  runDir: string;
}): Promise<RunSummary> {
  const { options, site, queueName, runDir } = input;
  const redis = new Redis(input.redisUrl, { maxRetriesPerRequest: 20 });
  const keys = runKeys(options.keyPrefix, queueName);
  const admin = new RedisQueueAdmin({ redis, keyPrefix: options.keyPrefix, name: queueName });
  if (options.join) {
    // Checked before the queue is opened: opening writes its meta, index entry and dedup filter.
    const stats = await admin.stats().catch((error: unknown) => {
      redis.disconnect();
      throw error;
    });
    if (stats.total === 0) {
      redis.disconnect();
      throw new QueueHasNoRequestsError(queueName, input.redisUrl);
    }
  }
  const { queue, store } = await openSharedQueue({
    redis,
    keyPrefix: options.keyPrefix,
    queueName,
    dedup: options.dedup,
    dedupKey: keys.dedupKey,
    lockSecs: options.lockSecs,
  });
  const counters = new RedisRunCounters(redis, keys.countersKey);
  countOffers(queue, counters);
  const read = redisSnapshot(admin, counters, store);

  if (!options.join) {
    // Seeded through the same wrappers as every link, so the start page gets a fingerprint and a dedup key too.
    await queue.addRequests([{ url: site.startUrl }]);
    log.info(`queue "${queueName}" on ${input.redisUrl} seeded with ${site.startUrl}`);
  }

  const fleet = new WorkerFleet(
    {
      redisUrl: input.redisUrl,
      keyPrefix: options.keyPrefix,
      queueName,
      dedup: options.dedup,
      dedupKey: keys.dedupKey,
      countersKey: keys.countersKey,
      concurrency: options.concurrency,
      lockSecs: options.lockSecs,
      verbose: options.verbose,
      ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
    },
    runDir,
    // Machines sharing a named queue would all have a worker-1; the host name tells their records apart.
    options.queueName === undefined ? '' : `${hostname()}/`,
  );
  const startedAt = Date.now();
  const stopOnSignal = () => {
    log.warning('interrupted: stopping the workers');
    fleet.stopAll();
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  // One fork per event-loop turn, a little apart: a stop signal is handled between two forks (a synchronous loop
  // would fork the whole fleet before the handler runs), and 40 Node.js processes do not boot at once.
  for (let i = 0; i < options.workers && !fleet.isStopping; i++) {
    fleet.start();
    if (i + 1 < options.workers) await new Promise((resolve) => setTimeout(resolve, WORKER_START_GAP_MS));
  }
  const progress = new ProgressReporter(read, options.progressSecs, () => fleet.alive);
  progress.start();
  const clock = new PageClock(async () => Number((await redis.hget(keys.countersKey, 'pages')) ?? 0));
  clock.start();

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
    progress.stop();
    await clock.stop();
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
  const durationSecs = (Date.now() - startedAt) / 1000;
  if (options.killOneWorkerAfter !== undefined && killed === null) {
    log.warning(`--kill-one-worker-after ${options.killOneWorkerAfter}: the crawl ended before that many pages; no worker was killed`);
  }

  const snapshot = await read();
  const redisUsedMemoryBytes = await redisUsedMemory(redis);
  const runKeysMemoryBytes = await runKeysMemory(redis, keys.hashTag);
  const merged = await mergeRecords(fleet.recordsFiles);
  writeJsonLines(options.output, merged.pages);
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
    redisUsedMemoryBytes,
    runKeysMemoryBytes,
    fetches: site.server?.fetches ?? null,
    killed,
    retried: await counters.retried(),
    output: options.output,
  });

  // A queue named by the user belongs to the user (other machines may still use it); a per-run queue is removed.
  if (options.queueName === undefined && !options.keepKeys) {
    await admin.drop();
    const rest = await runKeyNames(redis, keys.hashTag);
    if (rest.length > 0) await redis.del(...rest);
  } else {
    log.info(`kept the Redis keys of queue "${queueName}" (hash tag ${keys.hashTag})`);
  }
  await store?.close();
  redis.disconnect();
  return summary;
}

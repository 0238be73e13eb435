/**
 * Entry point of one worker process of the demo runner (forked by the coordinator, also by a `--join` coordinator on
 * another machine). It runs the crawler of src/worker.ts (the standalone worker) with the runner's additions:
 * counters, records files, --max-requests, fleet host back-off, stopping with the coordinator.
 * Reads its configuration from the environment (never argv, which `ps` shows to everyone), crawls the shared queue
 * until it is finished, then exits. It stops early, handing its locks back, when asked (SIGTERM/SIGINT from the
 * coordinator) or when its coordinator dies; nothing is marked failed because the coordinator vanished.
 */
import { log } from 'crawlee';
import { installLogFilter } from './log-filter.js';
import { openRedis } from './redis/open-redis.js';
import { CoordinatorWatch } from './worker/coordinator-watch.js';
import { createCrawler, processLocalConfiguration } from './worker/create-crawler.js';
import { countOffers } from './worker/count-offers.js';
import { HostBackoff } from './worker/host-backoff.js';
import { isConnectionFailure } from './worker/connection-failure.js';
import { openSharedQueue } from './worker/open-queue.js';
import { reconnectTimeoutSecs, watchRedisLoss } from './redis/redis-loss-watch.js';
import { RedisRunCounters } from './worker/run-counters.js';
import { WORKER_CONFIG_ENV, type WorkerConfig, type WorkerMessage } from './worker/worker-config.js';

/** Why a worker stops before the crawl is finished. */
type StopReason = 'requested' | 'coordinator-gone' | 'site-gone';

/** How long a fetch refused by the served site waits for the IPC channel to report the coordinator's death. */
const COORDINATOR_DEATH_GRACE_MS = 2_000;
/** How long a stopping worker spends handing back locks and publishing its last stats: with Redis gone those
 * calls would wait for the whole reconnect budget, and a stop must take seconds. Locks not handed back expire. */
const STOP_BUDGET_MS = 3_000;

function send(message: WorkerMessage): void {
  if (process.connected) process.send?.(message);
}

async function main(): Promise<void> {
  installLogFilter();
  const raw = process.env[WORKER_CONFIG_ENV];
  if (raw === undefined) throw new Error(`${WORKER_CONFIG_ENV} is not set: workers are started by the coordinator (dist/cli.js)`);
  const config = JSON.parse(raw) as WorkerConfig;
  log.setLevel(config.verbose ? log.LEVELS.INFO : log.LEVELS.WARNING);

  let stop: ((reason: StopReason) => void) | undefined;
  let pendingStop: StopReason | undefined;
  // Once a stop is asked for, requests still in flight are neither retried nor marked failed (their locks are handed
  // back and the process exits): an error they hit on the way out (the dedup store already closed, the connection
  // gone) is part of stopping, not a failure of the page.
  let stopping = false;
  const requestStop = (reason: StopReason) => {
    stopping = true;
    return stop ? stop(reason) : (pendingStop ??= reason);
  };
  const watch = new CoordinatorWatch(() => requestStop('coordinator-gone'));
  process.on('SIGTERM', () => requestStop('requested'));
  process.on('SIGINT', () => requestStop('requested'));

  // Commands wait through a Redis restart (no per-command retry count); the reconnect budget below bounds the wait.
  const redis = openRedis({ url: config.redisUrl, cluster: config.redisCluster }, { maxRetriesPerRequest: null });
  // Redis gone for good: one line and exit 1. Nothing is handed back (there is no Redis to write to); the locks
  // this worker holds expire and its requests return to whoever crawls the queue next.
  watchRedisLoss(redis, config.worker, config.redisUrl, reconnectTimeoutSecs(), (error) => {
    log.error(error.message);
    process.exit(1);
  });
  const crawleeConfig = processLocalConfiguration(config.results === 'redis' ? { redis, keyPrefix: config.keyPrefix } : undefined);
  const { queue, store, storageClient } = await openSharedQueue({
    lockSecs: config.lockSecs,
    config: crawleeConfig,
    redis,
    keyPrefix: config.keyPrefix,
    queueName: config.queueName,
    dedup: config.dedup,
    dedupKey: config.dedupKey,
    shards: config.shards,
    ...(config.politeness !== undefined ? { politeness: config.politeness } : {}),
  });
  const counters = new RedisRunCounters(redis, config.countersKey);
  countOffers(queue, counters);
  // A queue created without politeness (an older run) has no host schedule to push: no fleet back-off there.
  const hostBackoff =
    config.politeness === undefined
      ? undefined
      : new HostBackoff(queue, async (host, secs, why) => {
          log.warning(`${config.worker}: backing off ${host} for ${secs.toFixed(1)} s across the fleet (${why})`);
          await counters.add('hostBackoffs', 1, config.worker);
        });
  const crawler = createCrawler(
    {
      worker: config.worker,
      queue,
      counters,
      recordsFile: config.recordsFile,
      ...(config.results === 'redis' ? { resultsDataset: config.queueName } : {}),
      concurrency: config.concurrency,
      lockSecs: config.lockSecs,
      enqueueStrategy: config.enqueueStrategy,
      ...(hostBackoff !== undefined ? { hostBackoff } : {}),
      ...(config.maxRequests !== undefined ? { maxRequests: config.maxRequests } : {}),
      // A request whose fetch failed because the coordinator (and the site it served) died is neither retried nor
      // marked failed: the handler waits while the worker hands its locks back and exits, and the next run takes it.
      holdBack: async (url, error) => {
        if (stopping || watch.isGone) return true;
        const served = config.servedOrigin !== undefined && url.startsWith(config.servedOrigin);
        if (!served || !isConnectionFailure(error)) return false;
        if (config.servedByCoordinator === true) return watch.goneWithin(COORDINATOR_DEATH_GRACE_MS);
        // A --join worker on the machine of the seeding run: that run (and the folder it served) is gone.
        requestStop('site-gone');
        return true;
      },
    },
    crawleeConfig,
  );

  const finish = async (how: 'finished' | StopReason, handled: number, failed: number) => {
    // The documented finish: hands back every lock this worker still holds (Crawlee buffers some requests ahead, and
    // on a stop the in-flight ones), so others take them at once instead of waiting --lock-secs for them to expire,
    // and publishes the last worker stats (final counters, state `stopped`), so `crawlee-redis workers` and the
    // dashboard show this worker as stopped with every page it handled, not as alive until its record expires.
    const released = await queue.close().catch(() => 0);
    if (released > 0) log.info(`${config.worker}: released ${released} lock(s) it still held`);
    send({ type: how === 'finished' ? 'finished' : 'stopped', worker: config.worker, reason: how, released, stats: { handled, failed } });
    await store?.close().catch(() => undefined);
    // The storage client and the connection are this process's own (queue.close() leaves them open).
    await storageClient?.close().catch(() => undefined);
    redis.disconnect();
  };

  const stopped = new Promise<StopReason>((resolve) => {
    stop = (reason) => {
      stop = () => undefined;
      resolve(reason);
    };
    if (pendingStop !== undefined) stop(pendingStop);
  });
  const run = crawler.run().then((stats) => ({ stats }));
  const outcome = await Promise.race([run, stopped]);
  if (typeof outcome === 'string') {
    if (outcome === 'coordinator-gone') log.warning(`${config.worker}: the coordinator is gone; handing back my locks and stopping`);
    if (outcome === 'site-gone') {
      log.warning(`${config.worker}: ${config.servedOrigin ?? 'the site'} (served by the seeding run) refuses connections; handing back my locks and stopping`);
    }
    // abort() ends the pool without waiting for the requests in flight: their locks are released below and the
    // process exits, so none of them is retried, marked failed or marked handled by this worker after that.
    const done = (async () => {
      await crawler.autoscaledPool?.abort().catch(() => undefined);
      await finish(outcome, crawler.stats.state.requestsFinished, crawler.stats.state.requestsFailed);
    })();
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, STOP_BUDGET_MS).unref())]);
    process.exit(0);
  }
  await finish('finished', outcome.stats.requestsFinished, outcome.stats.requestsFailed);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    // The Redis packages' typed errors (Redis gone, ACL, ...) say what to do: one line, no stack.
    const code = (error as { code?: unknown } | undefined)?.code;
    // QUEUE_MISSING: the queue's meta is gone under the worker (a Redis back without its data): its message says why.
    if (typeof code === 'string' && /^(REDIS_|E_REDIS_|QUEUE_MISSING$)/.test(code)) log.error(`worker failed: ${(error as Error).name}: ${(error as Error).message}`);
    else log.exception(error as Error, 'worker failed');
    process.exit(1);
  },
);

/**
 * Entry point of one worker process (forked by the coordinator; on another machine, started by `--join`).
 * Reads its configuration from the environment, crawls the shared queue until it is finished, then exits.
 */
import { log } from 'crawlee';
import type { RedisRequestQueueClient } from 'crawlee-redis-queue';
import { Redis } from 'ioredis';
import { createCrawler, processLocalConfiguration } from './worker/create-crawler.js';
import { countOffers } from './worker/count-offers.js';
import { openSharedQueue } from './worker/open-queue.js';
import { RedisRunCounters } from './worker/run-counters.js';
import { WORKER_CONFIG_ENV, type WorkerConfig } from './worker/worker-config.js';

async function main(): Promise<void> {
  const raw = process.env[WORKER_CONFIG_ENV];
  if (raw === undefined) throw new Error(`${WORKER_CONFIG_ENV} is not set: workers are started by the coordinator (dist/cli.js)`);
  const config = JSON.parse(raw) as WorkerConfig;
  log.setLevel(config.verbose ? log.LEVELS.INFO : log.LEVELS.WARNING);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 20 });
  const crawleeConfig = processLocalConfiguration();
  const { queue, store } = await openSharedQueue({
    lockSecs: config.lockSecs,
    config: crawleeConfig,
    redis,
    keyPrefix: config.keyPrefix,
    queueName: config.queueName,
    dedup: config.dedup,
    dedupKey: config.dedupKey,
  });
  const counters = new RedisRunCounters(redis, config.countersKey);
  countOffers(queue, counters);
  const crawler = createCrawler(
    {
      worker: config.worker,
      queue,
      counters,
      recordsFile: config.recordsFile,
      concurrency: config.concurrency,
      lockSecs: config.lockSecs,
      ...(config.maxRequests !== undefined ? { maxRequests: config.maxRequests } : {}),
    },
    crawleeConfig,
  );
  const stats = await crawler.run();
  // A crawler stopped by --max-requests still holds the requests it had locked (Crawlee buffers some ahead): hand
  // them back now, so the queue does not show them locked until --lock-secs runs out and others can take them.
  const released = await (queue.client as RedisRequestQueueClient).releaseLocks();
  if (released > 0) log.info(`${config.worker}: released ${released} lock(s) it still held`);
  process.send?.({ type: 'finished', worker: config.worker, stats: { handled: stats.requestsFinished, failed: stats.requestsFailed } });
  await store?.close();
  redis.disconnect();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log.exception(error as Error, 'worker failed');
    process.exit(1);
  },
);

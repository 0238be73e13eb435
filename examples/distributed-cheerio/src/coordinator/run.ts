import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log } from 'crawlee';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { QueueFinishedError } from '../errors/queue-finished-error.js';
import { QueueHasNoRequestsError } from '../errors/queue-has-no-requests-error.js';
import { ResultsDatasetInUseError } from '../errors/results-dataset-in-use-error.js';
import { ServedSiteMismatchError } from '../errors/served-site-mismatch-error.js';
import { maskInText, maskUrl } from '../mask-credentials.js';
import type { RunOptions } from '../options.js';
import type { FleetPoliteness } from '../worker/politeness.js';
import { runKeys } from '../worker/worker-config.js';
import { openRedis, type RedisTarget } from '../redis/open-redis.js';
import { shardsForQueue } from './queue-shards.js';
import { checkStartUrl } from './check-start-url.js';
import { politenessForQueue } from './queue-politeness.js';
import { chooseStorage } from './choose-storage.js';
import { isFinished, readQueueState, type QueueState } from './queue-state.js';
import { ResultsDataset } from './results-dataset.js';
import { runDistributed } from './run-distributed.js';
import { runInProcess } from './run-in-process.js';
import { describeSource, openSiteSource, sourceOf } from './site-source.js';
import { printSummary, writeSummaryJson } from './print-summary.js';
import type { RunSummary } from './summary.js';

export { uniqueQueueName } from '../options.js';

/**
 * Reads the queue before anything is served or started, and refuses what cannot work: `--join` on a queue without
 * requests, any run on a finished queue, a resume that would serve another folder than the one the queue was seeded
 * from.
 */
async function inspectQueue(options: RunOptions, target: RedisTarget): Promise<QueueState & { shardCount: number }> {
  const url = target.url;
  const redis = openRedis(target, { maxRetriesPerRequest: 2, lazyConnect: true });
  const admin = new RedisQueueAdmin({ redis, keyPrefix: options.keyPrefix, name: options.runQueueName });
  try {
    const state = await readQueueState(redis, admin, runKeys(options.keyPrefix, options.runQueueName).hashTag);
    const shardCount = shardsForQueue(options, state.shards);
    // A live producer lease means a seeding run is still adding: a --join may start (its workers wait for the work).
    const seeding = state.producers > 0;
    if (options.join && state.stats.total === 0 && !seeding) throw new QueueHasNoRequestsError(options.runQueueName, maskUrl(url));
    if (isFinished(state.stats) && !seeding) throw new QueueFinishedError(options.runQueueName, maskInText(url), state.stats.handled, options.keyPrefix);
    const now = sourceOf(options);
    if (!options.join && state.site !== undefined && !state.site.source.startsWith('url:') && state.site.source !== now) {
      throw new ServedSiteMismatchError(options.runQueueName, describeSource(state.site.source), describeSource(now));
    }
    if (options.results === 'redis' && !options.join && state.stats.total === 0) {
      const stale = await new ResultsDataset(redis, options.keyPrefix, options.runQueueName).count();
      if (stale > 0) throw new ResultsDatasetInUseError(options.runQueueName, stale, options.keyPrefix);
    }
    return { ...state, shardCount };
  } finally {
    redis.disconnect();
  }
}

/**
 * One whole run: choose the storage (Redis, a redis-server started for the run, or one process), check the queue
 * and the start URL, serve the site (at the origin a resumed queue was seeded with), crawl, print the summary, write
 * the merged JSON Lines and `--summary-json`, and clean up what the run started.
 *
 * @param options - validated options (see {@link resolveOptions})
 * @returns the summary that was printed
 */
export async function runCrawl(options: RunOptions): Promise<RunSummary> {
  const storage = await chooseStorage(options);
  const stopServer = async () => {
    if (storage.kind === 'redis-started-for-run') await storage.server.stop();
  };
  let state: (QueueState & { shardCount: number }) | undefined;
  let politeness: FleetPoliteness | undefined;
  try {
    if (storage.kind !== 'memory-one-process') {
      state = await inspectQueue(options, storage);
      const exists = state.stats.total > 0 || state.producers > 0;
      // A new sharded queue is created without politeness (options.ts refuses the flags with --shards above 1): a
      // polite sharded queue keeps each host's schedule in its host's shard, which a fingerprint uniqueKey does not
      // name. An existing one keeps what it was created with.
      politeness = !exists && state.shardCount > 1 ? undefined : politenessForQueue(options, state.politeness, exists);
    }
    if (options.startUrl !== undefined) await checkStartUrl(options.startUrl);
  } catch (error) {
    await stopServer();
    throw error;
  }
  const resumeOrigin = state?.site?.origin;
  const site = await openSiteSource(
    options,
    resumeOrigin !== undefined && resumeOrigin !== '' ? { queueName: options.runQueueName, origin: resumeOrigin } : undefined,
  ).catch(async (error: unknown) => {
    await stopServer();
    throw error;
  });
  if (storage.kind === 'memory-one-process' && options.results === 'redis') {
    log.warning('--results redis: there is no Redis for this run, so the page records go to --output only (one process)');
  }
  const runDir = mkdtempSync(join(tmpdir(), 'distributed-cheerio-run-'));
  const queueName = options.runQueueName;
  try {
    const summary =
      storage.kind === 'memory-one-process'
        ? await runInProcess({ options, queueName, site, runDir })
        : await runDistributed({
            options,
            mode: storage.kind,
            redisUrl: storage.url,
            cluster: storage.cluster,
            shards: state?.shardCount ?? 1,
            queueName,
            site,
            politeness,
          });
    printSummary(summary);
    if (options.summaryJson !== undefined) writeSummaryJson(options.summaryJson, summary);
    return summary;
  } finally {
    await site.close();
    await stopServer();
    rmSync(runDir, { recursive: true, force: true });
  }
}

import { appendFileSync } from 'node:fs';
import { MemoryStorage } from '@crawlee/memory-storage';
import { Configuration, log, type CheerioCrawler, type RequestQueue } from 'crawlee';
import { RedisStorageClient } from 'crawlee-redis-queue';
import { createWorkerCrawler } from '../worker.js';
import type { RedisClient } from '../redis/open-redis.js';
import { stripTrackingParameters } from '../demo-site/tracking.js';
import { maskUrl } from '../mask-credentials.js';
import { HostThrottledError } from '../errors/host-throttled-error.js';
import type { EnqueueStrategyName } from '../options.js';
import { isConnectionRefused } from './connection-failure.js';
import type { HostBackoff } from './host-backoff.js';
import type { PageRecord } from './page-record.js';
import type { RunCounters } from './run-counters.js';

/** What one crawler (a worker process, or the whole one-process fallback) needs. */
export interface CrawlerSetup {
  worker: string;
  queue: RequestQueue;
  counters: RunCounters;
  recordsFile: string;
  /** `--results redis`: each record goes to this Redis dataset (the configuration's storage client must be
   * {@link processLocalConfiguration} with `redisDatasets`) instead of `recordsFile`. */
  resultsDataset?: string;
  concurrency: number;
  lockSecs: number;
  maxRequests?: number;
  /** Which links to follow (Crawlee's `EnqueueStrategy` names); default `same-hostname`. */
  enqueueStrategy?: EnqueueStrategyName;
  /** Fleet-wide back-off of a host on 429/503 + `Retry-After` and on runs of errors (Redis runs; the one-process
   * fallback has no shared host schedule). */
  hostBackoff?: HostBackoff;
  /**
   * Asked before a failed request is retried or marked failed; true means "leave it alone": the handler never
   * returns and the worker process exits, handing its lock back (the coordinator died and took the site with it).
   */
  holdBack?: (url: string, error: Error) => Promise<boolean>;
}

/** A promise that never settles: what a handler awaits while its process shuts down. */
const NEVER = new Promise<never>(() => undefined);

/** How often an over-budget handler checks whether the within-budget requests have been marked, in milliseconds. */
const BUDGET_DRAIN_POLL_MS = 25;

/** The part of BasicCrawler this file reads: the contexts of the requests still in flight (deleted after marking). */
interface InFlight {
  crawlingContexts: Map<string, unknown>;
}

/**
 * A per-process Crawlee configuration: datasets and key-value stores in memory, nothing persisted, nothing purged
 * (the crawler statistics and session pool live in the default key-value store, and processes would overwrite each
 * other's state if it were shared). With `redisDatasets` (`--results redis`), datasets live in Redis instead
 * (crawlee-redis-queue's `RedisStorageClient` with `datasets: 'redis'`), shared by every worker; key-value stores
 * stay in memory.
 */
export function processLocalConfiguration(redisDatasets?: { redis: RedisClient; keyPrefix: string }): Configuration {
  const local = new MemoryStorage({ persistStorage: false, writeMetadata: false });
  const storageClient = redisDatasets
    ? new RedisStorageClient({ ...redisDatasets, datasets: 'redis', localStorageClient: local, workerStats: false })
    : local;
  return new Configuration({ storageClient, persistStorage: false, purgeOnStart: false });
}

/** The URL as recorded: what was fetched, fragment dropped. */
function recordUrl(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/**
 * The CheerioCrawler every worker runs: follows same-host links, fingerprints them like Scrapy (after dropping
 * tracking parameters), and records each page to the dataset and to the worker's JSON Lines file.
 */
export function createCrawler(setup: CrawlerSetup, config: Configuration): CheerioCrawler {
  const { worker, counters, recordsFile, hostBackoff } = setup;
  const strategy = setup.enqueueStrategy ?? 'same-hostname';
  // --max-requests: a request over the budget must go back to pending untouched. Crawlee marks a request handled as
  // soon as its handler returns (and counts a retry when it throws), so an over-budget handler never returns: it
  // stops the crawler from starting requests, waits until every within-budget request in flight has been marked,
  // then aborts the pool. The worker hands its locks back (queue.releaseLocks()) and exits; the resume takes them.
  let budgetSpent = false;
  let held = 0; // handlers of this crawler that await NEVER (over budget, or failed after the budget was spent)
  const hold = (): Promise<never> => {
    held += 1;
    return NEVER;
  };
  const spendBudget = async (): Promise<never> => {
    if (!budgetSpent) {
      budgetSpent = true;
      crawler.stop('--max-requests reached');
      held += 1;
      const inFlight = (crawler as unknown as InFlight).crawlingContexts;
      while (inFlight.size > held) await new Promise((resolve) => setTimeout(resolve, BUDGET_DRAIN_POLL_MS));
      await crawler.autoscaledPool?.abort().catch(() => undefined);
      return NEVER;
    }
    return hold();
  };
  // The lock time the crawler's time-outs derive from (the in-process fallback's queue is Crawlee's own).
  setup.queue.requestLockSecs = setup.lockSecs;
  // The crawler of src/worker.ts; what the runner adds goes through its hooks: the page budget and HTTP errors
  // (admitPage), tracking parameters (transformLink), the record files or Redis dataset and counters (recordPage),
  // the host back-off and the hold-back on a vanished coordinator (Crawlee's own hooks and error handlers).
  const crawler = createWorkerCrawler(setup.queue, {
    concurrency: setup.concurrency,
    strategy,
    config,
    transformLink: (request) => {
      request.url = stripTrackingParameters(request.url);
      return request;
    },
    async admitPage({ request, response }) {
      if (!(await counters.claimPage(setup.maxRequests))) {
        await counters.add('overBudget', 1);
        return spendBudget();
      }
      if ((response.statusCode ?? 200) >= 400) {
        log.warning(`${worker}: ${maskUrl(request.url)} answered ${response.statusCode}`);
        await counters.add('httpErrors', 1, worker);
        return false;
      }
      hostBackoff?.noteSuccess(request.url);
      return true;
    },
    async recordPage(context) {
      const { request, $ } = context;
      const record: PageRecord = {
        url: maskUrl(recordUrl(request.loadedUrl ?? request.url)),
        title: $('title').first().text().trim(),
        worker,
        fingerprint: request.uniqueKey,
      };
      // Written before the request is marked handled (the handler awaits it): a SIGKILL after this line leaves the
      // record, and the page will be fetched again by another worker (the "fetched twice" count of the summary).
      if (setup.resultsDataset !== undefined) {
        await context.pushData(record, setup.resultsDataset); // one RPUSH into the Redis dataset every worker shares
      } else {
        appendFileSync(recordsFile, `${JSON.stringify(record)}\n`);
        await context.pushData(record);
      }
      await counters.add('pages', 1, worker);
    },
    crawler: {
      maxRequestRetries: 2,
      useSessionPool: false,
      // Before Crawlee parses the body (and before it throws on a 503): a 429/503 backs the host off for the whole
      // fleet and retries the request once the host is allowed again (see HostBackoff).
      postNavigationHooks: hostBackoff === undefined
        ? []
        : [
            async ({ request, response }) => {
              await hostBackoff.checkResponse(request.url, response?.statusCode, response?.headers['retry-after'], request.retryCount);
            },
          ],
      async errorHandler({ request }, error) {
        // After the budget is spent, a failed request (or an over-budget handler cut off by its time-out before the
        // process exits) stays untouched too: its lock is handed back, the resume takes it.
        if (budgetSpent) return hold();
        if (await setup.holdBack?.(request.url, error)) return NEVER;
        if (error instanceof HostThrottledError) {
          // Expected and handled (the host is backed off fleet-wide); not a failed attempt of the page.
          await counters.add('throttled', 1, worker);
          await counters.noteRetry(recordUrl(request.url));
          return;
        }
        await hostBackoff?.noteError(request.url);
        // Called before each retry: a re-fetch that is not caused by a killed worker shows up here.
        log.warning(`${worker}: ${maskUrl(request.url)} failed (${error.message}); retrying`);
        await counters.add('retries', 1, worker);
        if (isConnectionRefused(error)) await counters.add('refusedRetries', 1, worker);
        await counters.noteRetry(recordUrl(request.url));
      },
      async failedRequestHandler({ request }, error) {
        // Crawlee marks the request handled right after this handler returns: never for a coordinator that vanished.
        if (budgetSpent) return hold();
        if (await setup.holdBack?.(request.url, error)) return NEVER;
        await hostBackoff?.noteError(request.url);
        log.warning(`${worker}: giving up on ${maskUrl(request.url)}: ${error.message}`);
        await counters.add('failed', 1, worker);
        if (isConnectionRefused(error)) await counters.add('refused', 1, worker);
      },
    },
  });
  return crawler;
}

/**
 * A distributed CheerioCrawler: start this file in as many processes, on as many machines, as you like, all on one
 * Redis. They share one request queue (a request a worker takes is locked, not popped: if the worker dies, the
 * request comes back), fingerprint every request like Scrapy, and drop duplicates through one Bloom filter, so each
 * page is crawled by one of them. The records land in one Redis dataset named after the queue; a worker killed
 * mid-page has that page fetched again by another (nothing is lost), so a page may be recorded twice: export with
 * `--unique-by url`.
 *
 *   npx turbo run build --filter=distributed-cheerio...   # then, in each of N terminals (or machines):
 *   REDIS_URL=redis://127.0.0.1:6379 START_URL=https://crawlee.dev/ QUEUE=my-crawl node examples/distributed-cheerio/dist/worker.js
 *   (or, without building: npx tsx examples/distributed-cheerio/src/worker.ts)
 *   npx crawlee-redis export my-crawl --unique-by url --output results.jsonl   # once every worker has exited
 *
 * Only the packages' public entries are used. The demo runner (`npm start`) runs this same crawler, adding its own
 * behaviour through the options below: src/worker/create-crawler.ts and src/worker/open-queue.ts.
 */
import {
  CheerioCrawler,
  type CheerioCrawlerOptions,
  type CheerioCrawlingContext,
  type Configuration,
  type EnqueueLinksOptions,
  type RequestOptions,
  type RequestQueue,
} from 'crawlee';
import { RedisBloomDedupStore, withDedup, type DedupStore } from 'crawlee-bloom-dedup';
import { openRedisRequestQueue, RedisRequestQueue, RedisStorageClient, type RedisStorageClientOptions } from 'crawlee-redis-queue';
import { fingerprintTransform, withScrapyFingerprint } from 'crawlee-scrapy-fingerprint';
import { Redis, type Cluster } from 'ioredis';

/** Options of {@link openSharedQueue}; every process of a crawl passes the same. */
export interface SharedQueueOptions {
  /** The connection (standalone or Cluster); the caller closes it. */
  redis: Redis | Cluster;
  queueName: string;
  /** Seconds a taken request stays locked while its worker is silent. @defaultValue 60 */
  lockSecs?: number;
  /** The dedup store; `null`: none (the queue's own uniqueKey check only).
   * @defaultValue a Bloom filter for 1e6 fingerprints at 1e-6 false positives, `{<prefix>:rq:<queue>}:dupefilter` */
  dedup?: DedupStore | null;
  /** More settings of the queue's storage client: keyPrefix, shards, politeness, workerStats, ... */
  storage?: Omit<RedisStorageClientOptions, 'redis'>;
  /** The Crawlee configuration of the queue. @defaultValue Crawlee's global one */
  config?: Configuration;
}

/**
 * Opens the shared queue: Scrapy fingerprints as uniqueKeys, the dedup store checked inside the queue's add script.
 * @throws the queue's and the store's typed errors (Redis unreachable, incompatible filter, bad options)
 */
export async function openSharedQueue(options: SharedQueueOptions) {
  const { redis, queueName, storage = {} } = options;
  const store =
    options.dedup === undefined
      ? new RedisBloomDedupStore({ redis, key: `{${storage.keyPrefix ?? 'crawlee'}:rq:${queueName}}:dupefilter`, capacity: 1e6, errorRate: 1e-6, recipe: 'scrapy' })
      : (options.dedup ?? undefined);
  // One seen-set per crawl: with a dedup store, the store is the queue's record of handled requests. fastProlong as
  // openRedisRequestQueue sets it for a client of its own (a lock taken lasts the whole lockSecs from the start).
  const storageClient = new RedisStorageClient({ redis, fastProlong: true, handledRequests: store ? 'store' : 'key', ...storage });
  const queue = await openRedisRequestQueue(queueName, { storageClient, lockSecs: options.lockSecs ?? 60, ...(options.config ? { config: options.config } : {}) });
  withScrapyFingerprint(queue);
  if (store) withDedup(queue, { store });
  return { queue, store, storageClient };
}

/** Options of {@link createWorkerCrawler}. */
export interface WorkerCrawlerOptions {
  /** Requests in flight in this process. @defaultValue 10 */
  concurrency?: number;
  /** Which links to follow. @defaultValue 'same-hostname' */
  strategy?: EnqueueLinksOptions['strategy'];
  /** Rewrites a link before it is fingerprinted, or drops it (`false`). */
  transformLink?: (request: RequestOptions) => RequestOptions | false;
  /** Runs first on every page; `false` skips the page (no links followed, nothing recorded). */
  admitPage?: (context: CheerioCrawlingContext) => Promise<boolean>;
  /** Records a page once its links are queued. @defaultValue `pushData({ url, title })` */
  recordPage?: (context: CheerioCrawlingContext) => Promise<void>;
  /** Any other CheerioCrawler option (error handlers, hooks, retries); these win over the ones set here. */
  crawler?: Partial<CheerioCrawlerOptions>;
  /** @defaultValue the queue's `crawlerConfig` (records to the Redis dataset named after the queue) */
  config?: Configuration;
}

/** The CheerioCrawler every worker runs on the shared queue: follows links, records each page. */
export function createWorkerCrawler(queue: RequestQueue, options: WorkerCrawlerOptions = {}): CheerioCrawler {
  const { strategy = 'same-hostname', concurrency = 10 } = options;
  // Set on the link's options, so enqueueLinks dedups on the fingerprint. Crawlee transforms before its own
  // same-hostname filter: mailto: and javascript: links arrive here too and are dropped (not http, no fingerprint).
  const transformRequestFunction = fingerprintTransform<RequestOptions>({}, (request) =>
    /^https?:/i.test(request.url) ? (options.transformLink?.(request) ?? request) : false,
  );
  const lockSecs = queue.requestLockSecs;
  // Fetch plus handler end well inside the lock, or another worker may take the request while this one works on it.
  const timeoutSecs = Math.max(2, Math.floor(lockSecs * 0.4));
  const crawler = new CheerioCrawler(
    {
      requestQueue: queue,
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      requestHandlerTimeoutSecs: timeoutSecs,
      navigationTimeoutSecs: timeoutSecs,
      async requestHandler(context) {
        if (options.admitPage && !(await options.admitPage(context))) return;
        await context.enqueueLinks({ strategy, transformRequestFunction });
        if (options.recordPage) return options.recordPage(context);
        await context.pushData({ url: context.request.loadedUrl ?? context.request.url, title: context.$('title').first().text().trim() });
      },
      ...options.crawler,
    },
    options.config ?? (queue instanceof RedisRequestQueue ? queue.crawlerConfig : undefined),
  );
  // BasicCrawler raises a queue's lock to at least 60 s; a short lock brings a killed worker's requests back sooner.
  queue.requestLockSecs = lockSecs;
  return crawler;
}

/** One worker process: crawls until the queue is finished (nothing available, no lock held by anyone), then exits. */
async function main(): Promise<void> {
  const { REDIS_URL = 'redis://127.0.0.1:6379', START_URL, QUEUE = 'distributed-cheerio', CONCURRENCY = '10' } = process.env;
  // Checked before anything is written: a bad setting must not seed the queue first.
  const concurrency = Number(CONCURRENCY);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`CONCURRENCY must be a whole number, 1 or more (got "${CONCURRENCY}")`);
  if (START_URL !== undefined && !/^https?:\/\/[^/]/i.test(START_URL)) throw new Error(`START_URL must be an http(s) URL (got "${START_URL}")`);
  const redis = new Redis(REDIS_URL);
  const { queue, store, storageClient } = await openSharedQueue({ redis, queueName: QUEUE });
  const crawler = createWorkerCrawler(queue, { concurrency });
  // Ctrl-C / SIGTERM: finish the pages in flight; close() below hands the other locked requests back at once.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => crawler.stop(`${signal} received`));
  // Every worker may pass the start URL: the dedup lets it into the queue once per crawl.
  await crawler.run(START_URL ? [START_URL] : []);
  await queue.close(); // locks still held handed back, last worker stats published
  await storageClient.close();
  await store?.close();
  await redis.quit();
}

// Run when started as a script (node dist/worker.js, tsx src/worker.ts), not when imported by the demo runner.
if (/[\\/]worker\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  // One line with the error's name (typed errors say what to do), not a stack trace.
  await main().catch((error: Error) => {
    console.error(`worker failed: ${error.name}: ${error.message}`);
    process.exit(1);
  });
}

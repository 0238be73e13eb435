import { MemoryStorage } from '@crawlee/memory-storage';
import { CheerioCrawler, Configuration, type RequestOptions } from 'crawlee';
import { RedisSetDedupStore, withDedup } from 'crawlee-bloom-dedup';
import { openRedisRequestQueue } from 'crawlee-redis-queue';
import { fingerprintTransform, withScrapyFingerprint } from 'crawlee-scrapy-fingerprint';
import { Redis } from 'ioredis';
import { FLEET_FINGERPRINT } from './fleet-fingerprint.js';
import { scrapyRequestUrl } from './scrapy-request-url.js';
import type { WorkerOptions } from './worker-options.js';

/**
 * Runs one Crawlee worker until it has been idle for `idleSecs` with a finished queue: a CheerioCrawler on the shared
 * crawlee-redis-queue queue, fingerprints as scrapy-redis computes them (uniqueKey), and the scrapy-redis
 * dupefilter set `<spider>:dupefilter` as the dedup store, checked and set inside the queue's add script. Prints
 * `ready` once the queue is open, `fetched <url>` per page and `done <n>` at the end.
 * @returns the number of pages this worker handled
 */
export async function runWorker(options: WorkerOptions): Promise<number> {
  // Datasets, key-value stores and statistics stay in this process (processes sharing them would overwrite each other's statistics and state).
  const config = new Configuration({
    storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }),
    persistStorage: false,
    purgeOnStart: false,
  });
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  const queue = await openRedisRequestQueue(options.queue, {
    redis,
    keyPrefix: options.keyPrefix,
    config,
    ...(options.feedKey
      ? { startUrlsKey: options.feedKey, startUrls: { batchSize: options.feedBatch } }
      : {}),
  });
  withScrapyFingerprint(queue, FLEET_FINGERPRINT);
  const store = new RedisSetDedupStore({ redis, key: `${options.spider}:dupefilter` });
  withDedup(queue, { store });

  // Links are rewritten to what the Scrapy fleet fetches before they get their fingerprint.
  const transformRequestFunction = fingerprintTransform<RequestOptions>(FLEET_FINGERPRINT, (request) => {
    request.url = scrapyRequestUrl(request.url);
    return request;
  });
  const userAgent = `crawlee-fleet/${options.worker}`;
  let handled = 0;
  let lastActivity = Date.now();
  const crawler = new CheerioCrawler(
    {
      requestQueue: queue,
      keepAlive: true,
      maxConcurrency: options.concurrency,
      maxRequestRetries: 0,
      useSessionPool: false,
      preNavigationHooks: [
        (_context, gotOptions) => {
          gotOptions.headers = { ...gotOptions.headers, 'user-agent': userAgent };
        },
      ],
      async requestHandler({ request, enqueueLinks }) {
        lastActivity = Date.now();
        handled += 1;
        console.log(`fetched ${request.url}`);
        await enqueueLinks({ strategy: 'same-hostname', transformRequestFunction });
        lastActivity = Date.now();
      },
    },
    config,
  );

  // keepAlive keeps polling the queue (and the feed); stop once nothing has happened for idleSecs.
  const idle = setInterval(() => {
    if (Date.now() - lastActivity < options.idleSecs * 1000) return;
    void queue.isFinished().then((finished) => {
      if (finished && Date.now() - lastActivity >= options.idleSecs * 1000) crawler.stop('idle');
    });
  }, 250);
  console.log('ready');
  try {
    await crawler.run(options.startUrl.map((url) => ({ url })));
  } finally {
    clearInterval(idle);
    await store.close();
    await redis.quit();
  }
  console.log(`done ${handled}`);
  return handled;
}

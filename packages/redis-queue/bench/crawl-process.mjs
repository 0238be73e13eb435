// One benchmark process: seeds a request queue, crawls it with a no-op BasicCrawler, or both.
//
// Each measurement runs in a fresh process so heaps, JIT state and Crawlee's caches never carry over. The parent
// (run.mjs) talks to it over IPC: it sends { type: 'ready' } when the crawler is built and waits for { type: 'go' },
// so that two worker processes start crawling at the same moment; it answers with { type: 'result', ... }.
//
// argv[2] is JSON: { backend: 'memory' | 'redis', seed: number (requests to add, 0 = none), crawl: boolean,
//                    queueName, redisUrl?, keyPrefix?, concurrency, maxCrawlSecs?, expect?, finishGraceSecs? }
// Throughput is measured up to the last handled request (`lastHandledAt`); the time from there until
// crawler.run() resolves is the finish latency, reported on its own. MemoryStorage's queue can take minutes to
// see that it is finished (its isFinished path has no `queueHasLockedRequests` and polls listHead, which scans);
// with `expect` set, the crawler is stopped `finishGraceSecs` after the expected count was handled, and the result
// says `finishStalled: true`.
// maxCrawlSecs stops the crawler gracefully after that long (MemoryStorage's queue is quadratic in the queue size:
// 10,000 requests take about two minutes here, 100,000 would take hours); the result then says `capped: true` and
// the rate is the rate over what was handled, i.e. over the queue's cheapest part.
import { sent, snapshot } from './round-trips.mjs'; // first: patches ioredis before the queue connects
import { BasicCrawler, Configuration, MemoryStorage, RequestQueue, log } from 'crawlee';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.WARNING);

const config = new Configuration({ persistStorage: false, purgeOnStart: false });

async function openQueue() {
  if (cfg.backend === 'memory') {
    const storageClient = new MemoryStorage({ persistStorage: false, writeMetadata: false });
    return RequestQueue.open(cfg.queueName, { storageClient, config });
  }
  // Loaded only here, so the MemoryStorage runs do not even load the Redis package.
  const { openRedisRequestQueue } = await import('crawlee-redis-queue');
  return openRedisRequestQueue(cfg.queueName, { redis: cfg.redisUrl, keyPrefix: cfg.keyPrefix, requestHandlerTimeoutSecs: 60 });
}

function waitForGo() {
  return new Promise((resolve) => {
    process.on('message', (message) => {
      if (message?.type === 'go') resolve();
    });
    process.send({ type: 'ready' });
  });
}

const result = { type: 'result', backend: cfg.backend, pid: process.pid };
const queue = await openQueue();

if (cfg.seed > 0) {
  const requests = Array.from({ length: cfg.seed }, (_, i) => ({ url: `http://localhost/b/${i}` }));
  const before = snapshot();
  const t0 = performance.now();
  // One call, as crawler.addRequests does per chunk; the queue client chunks what Redis gets.
  await queue.addRequests(requests);
  result.seedMs = performance.now() - t0;
  result.seedRoundTrips = sent.roundTrips - before.roundTrips;
}

if (cfg.crawl) {
  let handled = 0;
  let stallTimer;
  const crawler = new BasicCrawler(
    {
      requestQueue: queue,
      // A fixed concurrency: the autoscaled pool would otherwise ramp up over tens of seconds and measure itself.
      minConcurrency: cfg.concurrency,
      maxConcurrency: cfg.concurrency,
      useSessionPool: false,
      statusMessageLoggingInterval: 3600,
      requestHandler: async () => {
        handled++;
        result.lastHandledAt = Date.now();
        if (handled === cfg.expect) {
          stallTimer = setTimeout(() => {
            result.finishStalled = true;
            crawler.stop('benchmark: all requests handled, but the crawler did not finish');
          }, (cfg.finishGraceSecs ?? 10) * 1000);
        }
      },
    },
    config,
  );
  if (process.send) await waitForGo();
  const before = snapshot();
  result.crawlStart = Date.now();
  const cap = cfg.maxCrawlSecs
    ? setTimeout(() => {
        result.capped = true;
        crawler.stop('benchmark time cap reached');
      }, cfg.maxCrawlSecs * 1000)
    : undefined;
  const stats = await crawler.run();
  clearTimeout(cap);
  clearTimeout(stallTimer);
  result.crawlEnd = Date.now();
  result.handled = handled;
  result.requestsFinished = stats.requestsFinished;
  result.roundTrips = sent.roundTrips - before.roundTrips;
  result.commands = sent.commands - before.commands;
}

result.rssBytes = process.memoryUsage().rss;
if (process.send) process.send(result, () => process.exit(0));
else {
  console.log(JSON.stringify(result));
  process.exit(0);
}

// One benchmark process: seeds a request queue, crawls it with a no-op BasicCrawler, or both.
//
// Each measurement runs in a fresh process so heaps, JIT state and Crawlee's caches never carry over. The parent
// (processes.mjs) talks to it over IPC: it sends { type: 'ready' } when the crawler is built and waits for
// { type: 'go' }, so that two worker processes start crawling at the same moment; it answers with
// { type: 'result', ... } and exits.
//
// argv[2] is JSON: { backend: 'memory' | 'redis', seed: number (requests to add, 0 = none), crawl: boolean,
//                    queueName, redisUrl?, keyPrefix?, queueOptions?, concurrency, expect?, warmup? }
// - `warmup`: requests crawled on a queue of the process's own before the measured crawl (see warmUp()).
//
// Throughput is measured up to the last handled request (`lastHandledAt`); the time from there until
// crawler.run() resolves is the finish latency, reported on its own.
// - `expect`: when that many requests were handled, the process also sends { type: 'measured', ... } at once.
//   MemoryStorage's queue can keep the crawler in its isFinished path for minutes, on promise chains that never
//   yield to timers; the parent then kills the process after a grace period and keeps the 'measured' numbers.
// - a time cap (processes.mjs `capSecs`): the crawl is cut short (`capped: true`), and the rate is the rate over
//   what was handled. The parent enforces it (its own timers run; this process's may not, see above): every 500 handled requests this
//   process sends { type: 'progress', ... } from inside the handler, and the parent keeps the last one.
import { sent, snapshot } from './round-trips.mjs'; // first: patches ioredis before the queue connects
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { BasicCrawler, Configuration, MemoryStorage, RequestQueue, log } from 'crawlee';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.WARNING);

const config = new Configuration({ persistStorage: false, purgeOnStart: false });

async function openQueue(queueName = cfg.queueName) {
  if (cfg.backend === 'memory') {
    const storageClient = new MemoryStorage({ persistStorage: false, writeMetadata: false });
    return RequestQueue.open(queueName, { storageClient, config });
  }
  // Loaded only here, so the MemoryStorage runs do not even load the Redis package.
  const { openRedisRequestQueue } = await import('crawlee-redis-queue');
  return openRedisRequestQueue(queueName, {
    redis: cfg.redisUrl,
    keyPrefix: cfg.keyPrefix,
    requestHandlerTimeoutSecs: 60,
    ...cfg.queueOptions,
  });
}

/** Wraps the queue client's methods to sum the time the crawler waits on each (where a request's time goes). */
function timeClientMethods(client) {
  const timings = {};
  for (const name of ['listAndLockHead', 'prolongRequestLock', 'getRequest', 'updateRequest', 'deleteRequestLock', 'listHead', 'get']) {
    const original = client[name].bind(client);
    const entry = (timings[name] = { calls: 0, ms: 0 });
    client[name] = async (...args) => {
      const t0 = performance.now();
      try {
        return await original(...args);
      } finally {
        entry.calls++;
        entry.ms += performance.now() - t0;
      }
    };
  }
  return timings;
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

function reportAndExit() {
  result.rssBytes = process.memoryUsage().rss;
  if (process.send) process.send(result, () => process.exit(0));
  else {
    console.log(JSON.stringify(result));
    process.exit(0);
  }
}

/**
 * A crawl of `cfg.warmup` requests on a queue of this process's own, before anything is measured: a worker of a real
 * fleet runs for hours, so the JIT compiling Crawlee's and the queue's code in its first second is not what a rate
 * should measure (at 2,000 requests it would be most of the run). Same backend, same settings.
 */
/** The crawler every run uses: fixed concurrency (the autoscaled pool would otherwise ramp up over tens of seconds
 * and measure itself), no session pool, no status messages. */
function benchCrawler(requestQueue, requestHandler) {
  return new BasicCrawler(
    {
      requestQueue,
      minConcurrency: cfg.concurrency,
      maxConcurrency: cfg.concurrency,
      useSessionPool: false,
      statusMessageLoggingInterval: 3600,
      requestHandler,
    },
    config,
  );
}

async function warmUp() {
  const queue = await openQueue(`${cfg.queueName}-warmup-${process.pid}`);
  await queue.addRequests(Array.from({ length: cfg.warmup }, (_, i) => ({ url: `http://localhost/warmup/${i}` })));
  await benchCrawler(queue, async () => {}).run();
  await queue.drop();
}

if (cfg.crawl && cfg.warmup > 0) await warmUp();

const queue = await openQueue();

if (cfg.seed > 0) {
  const requests = Array.from({ length: cfg.seed }, (_, i) => ({ url: `http://localhost/b/${i}` }));
  const before = snapshot();
  const t0 = performance.now();
  // One call; the queue client chunks what Redis gets.
  await queue.addRequests(requests);
  result.seedMs = performance.now() - t0;
  result.seedRoundTrips = sent.roundTrips - before.roundTrips;
}

if (cfg.crawl) {
  result.handled = 0;
  result.clientTimings = timeClientMethods(queue.client);
  let before;
  let cpuBefore;
  const measureSoFar = () => {
    result.roundTrips = sent.roundTrips - before.roundTrips;
    result.commands = sent.commands - before.commands;
    // CPU time of this process (user + system) during the crawl: what a request costs the worker itself.
    const cpu = process.cpuUsage(cpuBefore);
    result.cpuMs = (cpu.user + cpu.system) / 1000;
  };
  const crawler = benchCrawler(queue, async () => {
    result.handled++;
    result.lastHandledAt = Date.now();
    if (result.handled % 500 === 0 && process.send) {
      measureSoFar();
      process.send({ ...result, type: 'progress' });
    }
    if (result.handled === cfg.expect && process.send) {
      measureSoFar();
      process.send({ ...result, type: 'measured' });
    }
  });
  if (process.send) await waitForGo();
  before = snapshot();
  cpuBefore = process.cpuUsage();
  result.crawlStart = Date.now();
  await crawler.run();
  result.crawlEnd = Date.now();
  measureSoFar();
}

reportAndExit();

// One bench:engine process: seeds a queue, or crawls it with a Crawlee BasicCrawler, through one build of the queue
// (a file URL of a built dist/index.js: today's or the 0.1 code built from git). A fresh process per role, so no
// heap, JIT state or Crawlee cache carries over between builds.
//
// argv[2] is JSON: { impl, redisUrl, keyPrefix, queueName, role: 'seed' | 'crawl', workload, count, start,
//   fingerprint (withScrapyFingerprint on the queue), concurrency (a number: minConcurrency = maxConcurrency; null:
//   Crawlee's default autoscaled pool), handlerMs (0 = no-op handler), queueOptions, warmup (requests crawled on a
//   queue of the process's own before 'ready', so JIT warm-up is not measured), withSources (the result carries
//   every script's Lua source by name too) }
// Talks over IPC: a crawler sends { type: 'ready' } and waits for { type: 'go' }, so two workers start together;
// every role ends with { type: 'result', ... }. The script names this process registered on its connections (ioredis
// defineCommand) travel in the result as `scripts` (SHA-1 to name), for the MONITOR profile.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { BasicCrawler, Configuration, log } from 'crawlee';
import { requestsOf } from './workload.mjs';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({ persistStorage: false, purgeOnStart: false });

// Before any connection exists: remember which Lua source each script command name carries (EVALSHA shows only the
// SHA-1 in MONITOR).
const scripts = {};
const sources = new Map();
const defineCommand = Redis.prototype.defineCommand;
Redis.prototype.defineCommand = function namedDefineCommand(name, definition) {
  const sha = createHash('sha1').update(definition.lua).digest('hex');
  scripts[sha] = name.replace(/K\d+$/, '');
  sources.set(sha, definition.lua);
  return defineCommand.call(this, name, definition);
};

const { openRedisRequestQueue } = await import(cfg.impl);

async function openQueue(name) {
  const queue = await openRedisRequestQueue(name, {
    redis: cfg.redisUrl,
    keyPrefix: cfg.keyPrefix,
    requestHandlerTimeoutSecs: 60,
    config,
    ...cfg.queueOptions,
  });
  if (cfg.fingerprint) {
    const { withScrapyFingerprint } = await import('crawlee-scrapy-fingerprint');
    withScrapyFingerprint(queue);
  }
  return queue;
}

function crawlerOf(requestQueue, requestHandler) {
  const concurrency = cfg.concurrency
    ? { minConcurrency: cfg.concurrency, maxConcurrency: cfg.concurrency }
    : {};
  return new BasicCrawler(
    {
      requestQueue,
      ...concurrency,
      useSessionPool: false,
      statusMessageLoggingInterval: 3600,
      requestHandler,
    },
    config,
  );
}

const result = { type: 'result', pid: process.pid, scripts };
const send = (message) => new Promise((resolve) => process.send(message, resolve));

if (cfg.role === 'seed') {
  const queue = await openQueue(cfg.queueName);
  const requests = await requestsOf(cfg.workload, cfg.count, cfg.start ?? 0);
  const t0 = performance.now();
  await queue.addRequests(requests);
  result.seedMs = performance.now() - t0;
} else {
  if (cfg.warmup > 0) {
    const warm = await openQueue(`${cfg.queueName}-warmup-${process.pid}`);
    await warm.addRequests(await requestsOf('shaped', cfg.warmup, 10_000_000 + process.pid * 100_000));
    await crawlerOf(warm, async () => {}).run();
    await warm.drop();
  }
  const queue = await openQueue(cfg.queueName);
  result.handled = 0;
  const handlerMs = cfg.handlerMs ?? 0;
  const crawler = crawlerOf(queue, async () => {
    if (handlerMs > 0) await sleep(handlerMs);
    result.handled++;
    result.lastHandledAt = Date.now();
  });
  await new Promise((resolve) => {
    process.on('message', (message) => message?.type === 'go' && resolve());
    process.send({ type: 'ready' });
  });
  const cpu0 = process.cpuUsage();
  result.crawlStart = Date.now();
  await crawler.run();
  result.crawlEnd = Date.now();
  const cpu = process.cpuUsage(cpu0);
  result.cpuMs = (cpu.user + cpu.system) / 1000;
}
result.rssBytes = process.memoryUsage().rss;
if (cfg.withSources)
  result.sources = Object.fromEntries([...sources].map(([sha, lua]) => [scripts[sha], lua]));
await send(result);
process.exit(0);

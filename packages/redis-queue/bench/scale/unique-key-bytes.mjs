#!/usr/bin/env node
// Redis bytes per pending request for the three kinds of uniqueKey, and the worker's heap, through the public API
// (Crawlee's RequestQueue over openRedisRequestQueue, 1,000 requests per addRequests call). Each kind on a fresh
// redis-server of its own (default config), stopped by PID. A benchmark, not a test. Needs the built package (dist/).
//   plain       the bench:scale URL (one query parameter): Crawlee's uniqueKey is the URL
//   normalized  the workload's URL with two query parameters: Crawlee's uniqueKey sorts the query, so it differs
//   fingerprint the same URL with a 40-hex uniqueKey (sha1 of the URL: the shape of a Scrapy fingerprint)
// Options: --count 100000  --kinds plain,normalized,fingerprint  --impl <module URL> (default: this package's dist)
//          --crawlee-caches (give the queue Crawlee's own cache sizes back: a 2,000,000-entry requestCache and a
//          1,000,000-slot requestSeenCache, to compare)  --every 100000 (add rate and heap after a full GC, to stderr)
//          --crawl (then crawl them: one BasicCrawler, no-op handler, concurrency 50; Redis CPU and commands per
//          request over the adds and the crawl, commands run inside scripts included: INFO commandstats)
import console from 'node:console';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { BasicCrawler, Configuration, Request } from 'crawlee';
import { Redis } from 'ioredis';
import { commandCalls, serverCounters } from '../redis-info.mjs';
import { usedMemory } from './redis-memory.mjs';
import { urlOf } from './workload.mjs';

const { values: opts } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    kinds: { type: 'string', default: 'plain,normalized,fingerprint' },
    'crawlee-caches': { type: 'boolean', default: false },
    crawl: { type: 'boolean', default: false },
    every: { type: 'string', default: '100000' },
    impl: { type: 'string', default: pathToFileURL(fileURLToPath(new URL('../../dist/index.js', import.meta.url))).href },
  },
});
const count = Number(opts.count);
const { openRedisRequestQueue } = await import(opts.impl);

/** The workload's URL, 1,000 hosts: `https://www.h<NNNN>.example.com/category/<n>/item-<j>?ref=list&page=<k>`. */
const twoParamUrl = (i) => `https://www.h${String(i % 1000).padStart(4, '0')}.example.com/category/${i % 97}/item-${i}?ref=list&page=${i % 13}`;
const userDataOf = (i) => ({ label: i % 10 === 0 ? 'LIST' : 'DETAIL', depth: i % 5 });
// Request options, not Request objects: the queue's own Crawlee builds them (a Request of another copy of Crawlee,
// as with --impl of another build, would be copied field by field, internal state included).
const KINDS = {
  plain: (i) => ({ url: urlOf(i), userData: userDataOf(i) }),
  normalized: (i) => ({ url: twoParamUrl(i), userData: userDataOf(i) }),
  fingerprint: (i) => ({ url: twoParamUrl(i), uniqueKey: createHash('sha1').update(twoParamUrl(i)).digest('hex'), userData: userDataOf(i) }),
};

/** Redis CPU (user + sys) in µs. */
async function redisCpuUs(redis) {
  const info = Object.fromEntries((await redis.info('cpu')).split('\r\n').filter((l) => l.includes(':')).map((l) => l.split(':')));
  return (Number(info.used_cpu_user) + Number(info.used_cpu_sys)) * 1e6;
}

const rows = [];
for (const kind of opts.kinds.split(',')) {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    const queue = await openRedisRequestQueue('ukb', { redis: server.url, keyPrefix: 'ukb', config: new Configuration({ persistStorage: false }) });
    if (opts['crawlee-caches']) {
      queue.requestCache.maxLength = 2_000_000;
      queue.requestSeenCache = new queue.requestSeenCache.constructor(1_000_000);
    }
    const before = await usedMemory(redis);
    const [counters0, calls0] = [await serverCounters(redis), await commandCalls(redis)];
    const started = performance.now();
    let windowStart = started;
    let cpuStart = process.cpuUsage();
    let redisCpuStart = await redisCpuUs(redis);
    const every = Number(opts.every);
    for (let from = 0; from < count; from += 1000) {
      const batch = [];
      for (let i = from; i < Math.min(count, from + 1000); i++) batch.push(KINDS[kind](i));
      await queue.addRequests(batch);
      const done = from + batch.length;
      if (done % every === 0) {
        const now = performance.now();
        const cpu = process.cpuUsage(cpuStart);
        const redisCpu = (await redisCpuUs(redis)) - redisCpuStart;
        globalThis.gc?.();
        const heap = process.memoryUsage().heapUsed / 2 ** 20;
        // CPU per request, not only wall time: on a shared machine the wall rate follows the other tenants' load.
        console.error(`${kind} ${done}: add ${Math.round(every / ((now - windowStart) / 1000))}/s in the last window, Node CPU ${((cpu.user + cpu.system) / every).toFixed(1)} µs/request, Redis CPU ${(redisCpu / every).toFixed(1)} µs/request, heap after GC ${heap.toFixed(0)} MiB, requestCache ${queue.requestCache.length()}`);
        windowStart = performance.now();
        cpuStart = process.cpuUsage();
        redisCpuStart = await redisCpuUs(redis);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const perPending = ((await usedMemory(redis)) - before) / count;
    globalThis.gc?.();
    const sample = new Request(KINDS[kind](1));
    const row = { kind, perPending, addRate: count / seconds, heapMiB: process.memoryUsage().heapUsed / 2 ** 20, uniqueKeyIsUrl: sample.uniqueKey === sample.url };
    if (opts.crawl) {
      const crawlStart = performance.now();
      const crawler = new BasicCrawler({ requestQueue: queue, minConcurrency: 50, maxConcurrency: 50, requestHandler: () => Promise.resolve() }, new Configuration({ persistStorage: false, purgeOnStart: false }));
      const stats = await crawler.run();
      const crawlSeconds = (performance.now() - crawlStart) / 1000;
      const [counters1, calls1] = [await serverCounters(redis), await commandCalls(redis)];
      // INFO itself is a command: the four reads between the two snapshots are taken off.
      const calls = Object.values(calls1).reduce((a, b) => a + b, 0) - Object.values(calls0).reduce((a, b) => a + b, 0) - 4;
      Object.assign(row, { crawled: stats.requestsFinished, crawlRate: stats.requestsFinished / crawlSeconds, redisCpuUs: ((counters1.cpuSeconds - counters0.cpuSeconds) * 1e6) / count, commands: calls / count });
    }
    rows.push(row);
    await queue.client.storageClient?.close?.();
  } finally {
    redis.disconnect();
    await server.destroy();
  }
}
console.log(`| uniqueKey kind (${count.toLocaleString('en')} pending) | uniqueKey = URL | B/pending | add/s | worker heap MiB |`);
console.log('|---|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.kind} | ${r.uniqueKeyIsUrl ? 'yes' : 'no'} | ${r.perPending.toFixed(1)} | ${Math.round(r.addRate)} | ${r.heapMiB.toFixed(0)} |`);
if (opts.crawl) {
  console.log('\n| uniqueKey kind | crawled | crawl req/s | Redis CPU µs per request (adds + crawl) | commands per request |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.kind} | ${r.crawled} | ${Math.round(r.crawlRate)} | ${r.redisCpuUs.toFixed(1)} | ${r.commands.toFixed(2)} |`);
}
process.exit(0);

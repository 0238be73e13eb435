#!/usr/bin/env node
// `npm run bench` (last part): the politeness benchmark, on a redis-server of the bench's own (free loopback
// port, default config), stopped by PID; the shared 6379 is never touched. Needs the built package.
//
// 1. listAndLockHead cost with 1, 100 and 10,000 hosts and --size (1M) pending requests, through the queue API:
//    - "due": no delay and no limit, so every call hands out a full batch (limit 25) across the due hosts;
//    - "waiting": minDelaySecs 3600 after every host had one hand-out, so every host waits with all its requests:
//      the idle poll of a fleet whose hosts all wait (its cost must not grow with the waiting requests);
//    side by side with the anchor, the same queue without politeness (today's lock path, unchanged).
//    Per call: client wall time (median and p99, ms) and Redis CPU (used_cpu_user + sys delta / calls, µs).
// 2. A polite crawl's achieved rate against its bound (hosts / minDelaySecs): in-process consumers (own
//    connections) lock, "fetch" for --work-ms, mark handled.
// Writes RESULTS.md here (between <!-- bench-politeness:start/end -->) with --write; --json prints every number.
//
// Options: --size 1000000  --hosts 1,100,10000  --calls 2000  --crawl '20x0.2,100x1' (hosts x minDelaySecs)
//          --crawl-requests 1000  --consumers 3  --work-ms 10  --write  --json
import console from 'node:console';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { parseInfo } from '../redis-info.mjs';

const { values: opts } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    hosts: { type: 'string', default: '1,100,10000' },
    calls: { type: 'string', default: '2000' },
    crawl: { type: 'string', default: '20x0.2,100x1' },
    'crawl-requests': { type: 'string', default: '1000' },
    consumers: { type: 'string', default: '3' },
    'work-ms': { type: 'string', default: '10' },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const SIZE = Number(opts.size);
const CALLS = Number(opts.calls);
const LIMIT = 25;
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { RedisStorageClient } = await import('crawlee-redis-queue');

const server = await startRedisServer();
const redis = new Redis(server.url);
const started = Date.now();
const load = loadavg().map((x) => x.toFixed(1)).join(', ');

async function usedMemory() {
  return Number(parseInfo(await redis.info('memory')).used_memory);
}

async function cpuSeconds() {
  const cpu = parseInfo(await redis.info('cpu'));
  return Number(cpu.used_cpu_user) + Number(cpu.used_cpu_sys);
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Opens a queue client on its own storage client. */
async function openQueue(name, politeness) {
  const storage = new RedisStorageClient({ redis: server.url, keyPrefix: 'pbench', politeness, workerStats: false, maxStalls: 0 });
  await storage.requestQueues().getOrCreate(name);
  return { storage, client: storage.requestQueue(name, { clientKey: `c-${Math.random()}` }) };
}

/** Adds `size` requests spread round-robin over `hosts` hosts, 1000 per call, 4 calls in flight. */
async function fill(client, size, hosts) {
  const batch = 1000;
  let next = 0;
  const worker = async () => {
    for (;;) {
      const start = next;
      next += batch;
      if (start >= size) return;
      const requests = [];
      for (let i = start; i < Math.min(size, start + batch); i++) {
        const url = `https://h${i % hosts}.example-shop.test/catalog/items/${String(i).padStart(9, '0')}?ref=bench`;
        requests.push({ url, uniqueKey: url, method: 'GET', userData: { label: 'DETAIL', depth: 2 } });
      }
      await client.batchAddRequests(requests);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** `calls` listAndLockHead calls of one client, lock only; wall ms per call and Redis CPU µs per call. */
async function measureCalls(client, calls) {
  const times = [];
  let items = 0;
  const cpu0 = await cpuSeconds();
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    const head = await client.listAndLockHead({ limit: LIMIT, lockSecs: 3600 });
    times.push(performance.now() - t);
    items += head.items.length;
  }
  const cpu = (await cpuSeconds()) - cpu0;
  times.sort((a, b) => a - b);
  return { calls, itemsPerCall: items / calls, medianMs: quantile(times, 0.5), p99Ms: quantile(times, 0.99), redisUsPerCall: (cpu / calls) * 1e6 };
}

const costRows = [];
async function costRun(label, hosts, politeness, waiting) {
  await redis.flushall(); // the bench's own server
  const name = `cost-${hosts}-${waiting ? 'w' : 'd'}-${politeness ? 'p' : 'a'}`;
  const { storage, client } = await openQueue(name, politeness);
  const mem0 = await usedMemory();
  const t = performance.now();
  await fill(client, SIZE, hosts);
  const fillSecs = (performance.now() - t) / 1000;
  const bytesPerPending = ((await usedMemory()) - mem0) / SIZE;
  if (waiting) {
    // One hand-out per host first: then every host waits an hour with the rest of its requests.
    let handed = 0;
    while (handed < hosts) handed += (await client.listAndLockHead({ limit: LIMIT, lockSecs: 3600 })).items.length;
  }
  const m = await measureCalls(client, CALLS);
  const row = { label, hosts, pending: SIZE, fillRate: SIZE / fillSecs, bytesPerPending, ...m };
  costRows.push(row);
  console.log(JSON.stringify(row));
  await storage.close();
}

for (const hosts of opts.hosts.split(',').map(Number)) {
  await costRun('politeness, due (no delay, no limit)', hosts, { retryBackoff: false }, false);
  await costRun('politeness, every host waiting (minDelaySecs 3600)', hosts, { minDelaySecs: 3600 }, true);
}
await costRun('anchor: no politeness (today\'s lock path)', 0, undefined, false);

/** A polite crawl: `consumers` loops lock up to 5, "fetch" each for workMs, mark handled; achieved rate vs bound. */
async function crawl(hosts, minDelaySecs) {
  await redis.flushall();
  const total = Number(opts['crawl-requests']);
  const name = `crawl-${hosts}-${minDelaySecs}`;
  const politeness = { minDelaySecs };
  const { storage, client: seed } = await openQueue(name, politeness);
  const requests = Array.from({ length: total }, (_, i) => {
    const url = `http://h${i % hosts}.test/p/${i}`;
    return { url, uniqueKey: url, method: 'GET', userData: {} };
  });
  await seed.batchAddRequests(requests);
  const opened = await Promise.all(Array.from({ length: Number(opts.consumers) }, () => openQueue(name, politeness)));
  const workMs = Number(opts['work-ms']);
  const t = performance.now();
  let done = 0;
  await Promise.all(
    opened.map(async ({ client }) => {
      for (;;) {
        const head = await client.listAndLockHead({ limit: 5, lockSecs: 60 });
        if (head.items.length === 0) {
          if (!head.queueHasLockedRequests) return;
          await sleep(5);
          continue;
        }
        await Promise.all(
          head.items.map(async (item) => {
            await sleep(workMs);
            await client.updateRequest({ ...(await client.getRequest(item.id)), id: item.id, handledAt: new Date().toISOString() });
            done++;
          }),
        );
      }
    }),
  );
  const secs = (performance.now() - t) / 1000;
  // Each host needs (n-1) gaps of at least minDelay plus its last request's work: the crawl's shortest time.
  const perHost = Math.ceil(total / hosts);
  const boundSecs = (perHost - 1) * minDelaySecs + workMs / 1000;
  const row = { hosts, minDelaySecs, requests: done, consumers: opened.length, secs, rate: done / secs, boundRate: hosts / minDelaySecs, boundSecs };
  console.log(JSON.stringify(row));
  await Promise.all([storage, ...opened.map((o) => o.storage)].map((s) => s.close()));
  return row;
}
const crawlRows = [];
for (const spec of opts.crawl.split(',')) {
  const [hosts, delay] = spec.split('x').map(Number);
  crawlRows.push(await crawl(hosts, delay));
}

await redis.quit();
await server.stop();

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const int = (x) => Math.round(x).toLocaleString('en-US');
const md = [
  `Politeness benchmark, ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.versions.node}, ` +
    `Redis on its own server (default config), load average at start ${load} (a shared machine: compare rows of one run, not runs). ` +
    `${int(SIZE)} pending requests (78-character URLs) spread round-robin over the hosts; ${int(CALLS)} listAndLockHead calls (limit ${LIMIT}, lock only) per row, one client.`,
  '',
  '| lock path | hosts | requests per call | median ms / call | p99 ms / call | Redis CPU µs / call | add rate (req/s) | Redis B / pending |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...costRows.map(
    (r) => `| ${r.label} | ${r.hosts ? int(r.hosts) : '–'} | ${f1(r.itemsPerCall)} | ${f2(r.medianMs)} | ${f2(r.p99Ms)} | ${int(r.redisUsPerCall)} | ${int(r.fillRate)} | ${f1(r.bytesPerPending)} |`,
  ),
  '',
  'A polite crawl against its bound (hosts / minDelaySecs); one request per host at a time (the default with a delay); ' +
    `${opts.consumers} in-process consumers on their own connections, ${opts['work-ms']} ms of "fetch" per request. ` +
    'The shortest possible time is (requests per host - 1) x minDelaySecs + one fetch: the first request of each host needs no gap, ' +
    'so with few requests per host the achieved rate can exceed hosts / minDelaySecs; "shortest / took" is the efficiency (1.00: no consumer idled while a host was allowed).',
  '',
  '| hosts | minDelaySecs | requests | took (s) | shortest possible (s) | shortest / took | achieved (req/s) | hosts / minDelaySecs (req/s) |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...crawlRows.map(
    (r) => `| ${r.hosts} | ${r.minDelaySecs} | ${int(r.requests)} | ${f1(r.secs)} | ${f2(r.boundSecs)} | ${f2(r.boundSecs / r.secs)} | ${f1(r.rate)} | ${f1(r.boundRate)} |`,
  ),
  '',
  `Run took ${f1((Date.now() - started) / 60000)} min.`,
].join('\n');
console.log(`\n${md}\n`);
if (opts.json) console.log(JSON.stringify({ costRows, crawlRows }, null, 2));
if (opts.write) {
  const path = here('./RESULTS.md');
  const START = '<!-- bench-politeness:start -->';
  const END = '<!-- bench-politeness:end -->';
  const head = '# Politeness benchmark (`bench/politeness/run.mjs`, part of `npm run bench`)\n\n';
  const text = existsSync(path) ? readFileSync(path, 'utf8') : `${head}${START}\n${END}\n`;
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  writeFileSync(path, `${text.slice(0, s + START.length)}\n${md}\n${text.slice(e)}`);
  console.log(`wrote ${path}`);
}

#!/usr/bin/env node
// `npm run bench`: a no-op BasicCrawler over 2,000, 10,000 and 100,000 requests on Crawlee's MemoryStorage queue
// and on this package's Redis queue (one and two worker processes), against the built dist, on a redis-server
// started for the bench only (the shared 6379 is never touched). Prints the tables and writes them into the
// docs/benchmarks.md section between <!-- bench:start --> and <!-- bench:end -->.
//
// With more than one worker it also runs the scaling anchor: the same number of processes, each crawling a queue of
// its own (nothing shared but the machine and the Redis server), to show what the machine allows.
//
// Options: --sizes 2000,10000,100000  --workers 1,2  --concurrency 50  --memory-cap-secs 120
//          --warmup 1000 (requests each crawling process crawls on a queue of its own first; 0 = none)
//          --repeat 3 (runs of each measurement, interleaved; the table shows the median run by rate. MemoryStorage
//          runs once at sizes above 10,000, where its run is cut off at --memory-cap-secs anyway)
//          --skip-memory  --no-write  --json (print every measurement as JSON too)
//          --queue-options '{"fastProlong":true}' (extra openRedisRequestQueue options for the crawling workers)
// The default concurrency of 50 per process keeps enough requests in flight to hide Redis round trips (Crawlee's
// own default lets the autoscaled pool go up to 200); MemoryStorage is CPU-bound and runs at the same setting.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { parallelHeadroom } from './cpu-headroom.mjs';
import { measureIndependent, measureMemory, measureRedis } from './measure.mjs';
import { parseInfo } from './redis-info.mjs';
import { checkTargets, markdown, writeSection } from './report.mjs';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2000,10000,100000' },
    workers: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', default: '50' },
    'memory-cap-secs': { type: 'string', default: '120' },
    'skip-memory': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'queue-options': { type: 'string', default: '{}' },
    warmup: { type: 'string', default: '1000' },
    repeat: { type: 'string', default: '3' },
  },
});
const sizes = opts.sizes.split(',').map(Number);
const workerCounts = opts.workers.split(',').map(Number);
const concurrency = Number(opts.concurrency);
const memoryCapSecs = Number(opts['memory-cap-secs']);
const queueOptions = JSON.parse(opts['queue-options']);
const warmup = Number(opts.warmup);
const repeat = Number(opts.repeat);

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const crawleeVersion = JSON.parse(readFileSync(here('../../../node_modules/crawlee/package.json'), 'utf8')).version;
const { RedisQueueAdmin } = await import('crawlee-redis-queue');

const server = await startRedisServer();
const redis = new Redis(server.url);
const keyPrefix = 'bench';
const admins = [];
const admin = (name) => {
  const a = new RedisQueueAdmin({ redis, keyPrefix, name });
  admins.push(a);
  return a;
};
const log = (message) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

const meta = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()})`,
  node: process.versions.node,
  redisVersion: parseInfo(await redis.info('server')).redis_version,
  crawlee: crawleeVersion,
  concurrency,
  memoryCapSecs,
  loadAverage: loadavg().map((x) => x.toFixed(1)).join(', '),
  queueOptions,
  warmup,
  repeat,
};

meta.headroomBefore = await parallelHeadroom();
log(`parallel CPU headroom: two busy processes run at ${meta.headroomBefore.toFixed(2)}x one`);
const rows = [];
try {
  /** The run with the median rate (the table's value); every run's rate stays in `rates`. */
  const median = (runs) => {
    const sorted = [...runs].sort((a, b) => a.rate - b.rate);
    return { ...sorted[Math.floor((sorted.length - 1) / 2)], rates: runs.map((r) => Math.round(r.rate)) };
  };
  const rates = (m) => (m.rates.length > 1 ? ` (runs: ${m.rates.join(', ')})` : '');
  for (const n of sizes) {
    const row = { n, memory: undefined, redis: {} };
    rows.push(row);
    const runs = { memory: [], redis: Object.fromEntries(workerCounts.map((w) => [w, []])), independent: [] };
    const most = Math.max(...workerCounts);
    for (let rep = 1; rep <= repeat; rep++) {
      const tag = repeat > 1 ? ` [run ${rep}/${repeat}]` : '';
      if (!opts['skip-memory'] && (rep === 1 || n <= 10_000)) {
        log(`MemoryStorage, ${n} requests${tag}`);
        const m = await measureMemory(n, { concurrency, memoryCapSecs, warmup });
        runs.memory.push(m);
        log(`  ${Math.round(m.rate)} req/s${m.capped ? ' (capped)' : ''}${m.finishStalled ? ' (finish stalled)' : ''}`);
      }
      for (const workers of workerCounts) {
        log(`Redis, ${n} requests, ${workers} worker process(es)${tag}`);
        const r = await measureRedis(n, workers, { concurrency, redis, redisUrl: server.url, keyPrefix, admin, queueOptions, warmup });
        runs.redis[workers].push(r);
        log(`  ${Math.round(r.rate)} req/s, ${r.roundTripsPerRequest.toFixed(2)} round trips/request, handled ${r.handled} (queue says ${r.queueHandled})`);
      }
      if (most > 1) {
        log(`anchor: ${most} independent processes, each its own queue of ${Math.floor(n / most)} requests${tag}`);
        const a = await measureIndependent(n, most, { concurrency, redisUrl: server.url, keyPrefix, admin, queueOptions, warmup });
        runs.independent.push({ workers: most, ...a });
        log(`  ${Math.round(a.rate)} req/s`);
      }
    }
    if (runs.memory.length > 0) row.memory = median(runs.memory);
    for (const workers of workerCounts) row.redis[workers] = median(runs.redis[workers]);
    if (runs.independent.length > 0) row.independent = median(runs.independent);
    log(
      `${n} requests, medians: MemoryStorage ${row.memory ? Math.round(row.memory.rate) + rates(row.memory) : '–'}; ` +
        workerCounts.map((w) => `Redis ${w}w ${Math.round(row.redis[w].rate)}${rates(row.redis[w])}`).join('; ') +
        (row.independent ? `; anchor ${Math.round(row.independent.rate)}${rates(row.independent)}` : ''),
    );
  }
  meta.headroomAfter = await parallelHeadroom();
} finally {
  for (const a of admins) await a.close().catch(() => undefined);
  redis.disconnect();
  await server.destroy();
}

const section = markdown(rows, meta);
console.log(section);
if (opts.json) console.log(JSON.stringify({ meta, rows }, null, 2));
for (const t of checkTargets(rows)) if (!t.met) log(`target missed: ${t.name}: ${t.value}`);
if (!opts['no-write']) log(`wrote ${writeSection(section, here('../docs/benchmarks.md'), here('./RESULTS.md'))}`);

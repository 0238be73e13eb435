#!/usr/bin/env node
// `npm run bench`: a no-op BasicCrawler over 2,000, 10,000 and 100,000 requests on Crawlee's MemoryStorage queue
// and on this package's Redis queue (one and two worker processes), against the built dist, on a redis-server
// started for the bench only (the shared 6379 is never touched). Prints the tables and writes them into the
// README section between <!-- bench:start --> and <!-- bench:end -->.
//
// With more than one worker it also runs the scaling anchor: the same number of processes, each crawling a queue of
// its own (nothing shared but the machine and the Redis server), to show what the machine allows.
//
// Options: --sizes 2000,10000,100000  --workers 1,2  --concurrency 50  --memory-cap-secs 120
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
  },
});
const sizes = opts.sizes.split(',').map(Number);
const workerCounts = opts.workers.split(',').map(Number);
const concurrency = Number(opts.concurrency);
const memoryCapSecs = Number(opts['memory-cap-secs']);
const queueOptions = JSON.parse(opts['queue-options']);

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
};

meta.headroomBefore = await parallelHeadroom();
log(`parallel CPU headroom: two busy processes run at ${meta.headroomBefore.toFixed(2)}x one`);
const rows = [];
try {
  for (const n of sizes) {
    const row = { n, memory: undefined, redis: {} };
    rows.push(row);
    if (!opts['skip-memory']) {
      log(`MemoryStorage, ${n} requests`);
      row.memory = await measureMemory(n, { concurrency, memoryCapSecs });
      log(`  ${Math.round(row.memory.rate)} req/s${row.memory.capped ? ' (capped)' : ''}${row.memory.finishStalled ? ' (finish stalled)' : ''}`);
    }
    for (const workers of workerCounts) {
      log(`Redis, ${n} requests, ${workers} worker process(es)`);
      row.redis[workers] = await measureRedis(n, workers, { concurrency, redis, redisUrl: server.url, keyPrefix, admin, queueOptions });
      const r = row.redis[workers];
      log(`  ${Math.round(r.rate)} req/s, ${r.roundTripsPerRequest.toFixed(2)} round trips/request, handled ${r.handled} (queue says ${r.queueHandled})`);
    }
    const most = Math.max(...workerCounts);
    if (most > 1) {
      log(`anchor: ${most} independent processes, each its own queue of ${Math.floor(n / most)} requests`);
      row.independent = { workers: most, ...(await measureIndependent(n, most, { concurrency, redisUrl: server.url, keyPrefix, admin, queueOptions })) };
      log(`  ${Math.round(row.independent.rate)} req/s`);
    }
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
if (!opts['no-write']) log(`wrote ${writeSection(section, here('../README.md'), here('./RESULTS.md'))}`);

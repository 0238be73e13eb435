#!/usr/bin/env node
// `npm run bench:engine`: what one crawled request costs the Redis server, in one run on one redis-server the bench
// starts itself (free loopback port, stopped by PID): this code (the built dist/), the 0.1 code built from git
// (commit fe2f464, bench/scale/anchor.mjs) and the real scrapy-redis scheduler (Debian's python3-scrapy, the
// vendored scrapy-redis of the workspace's shared/ on PYTHONPATH) on the same requests. A benchmark, not a test:
// nothing fails on a missed target; the table says what was measured.
//
// Rows (two worker processes, each a Crawlee BasicCrawler with a no-op handler, unless a row says otherwise):
//   shaped      --count requests https://www.example.com/category/<n>/item-<j>?ref=list&page=<k>, userData
//               { label, depth }, minConcurrency = maxConcurrency = 50; today with default options and with the lean
//               options (maxStalls 0, handledRequests 'request', workerStats false), 0.1, scrapy-redis
//   autoscaled  the same with Crawlee's default autoscaled pool (concurrency ramps up from 1)
//   slow        --slow-count requests, a 200 ms handler at concurrency 20
//   realistic   --count requests of shared/workloads/realistic-requests.mjs, plain and withScrapyFingerprint
//   one worker  --single-count requests, one worker at concurrency 50: the crawl loop's rate against 0.1
//   bytes       Redis bytes per pending request (used_memory delta, --bytes-count requests) per uniqueKey kind
//   profile     calls per command per request in the add and crawl phases (INFO commandstats deltas of the shaped
//               row), and per script from a small run under MONITOR (--profile-count requests)
// Per request: Redis CPU µs (INFO cpu used_cpu_user + used_cpu_sys, adds + crawl), commands (INFO commandstats
// calls, those inside scripts included; the bench's own INFO/FLUSHALL left out), req/s from release to the last
// handled request. Needs the built package (npx turbo run build --filter=crawlee-redis-queue...).
//
// Options: --quick (about a fifth of the requests)  --count 20000  --autoscaled-count (--count)  --slow-count 4000
//          --single-count 10000
//          --bytes-count 100000  --profile-count 2000  --warmup 1000  --only shaped,autoscaled,slow,realistic,single,
//          bytes,profile  --no-anchor  --no-scrapy  --python /usr/bin/python3  --write (bench/engine/RESULTS.md)
//          --json (every measurement on stdout too; always kept in bench/engine/.tmp/RESULTS.json)
//          --render <file.json> (only render a saved run again; with --write into RESULTS.md)
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { parseInfo } from '../redis-info.mjs';
import { ANCHOR_COMMIT, buildAnchor } from '../scale/anchor.mjs';
import { measureBytes, measureCrawl, measureScrapy } from './measure.mjs';
import { monitorProfile } from './profile.mjs';
import { markdown } from './report.mjs';
import { sharedPath } from './shared-dir.mjs';
import { hasRealistic } from './workload.mjs';

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    count: { type: 'string' },
    'slow-count': { type: 'string' },
    'autoscaled-count': { type: 'string' },
    'single-count': { type: 'string' },
    'bytes-count': { type: 'string' },
    'profile-count': { type: 'string' },
    warmup: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'shaped,autoscaled,slow,realistic,single,bytes,profile' },
    'no-anchor': { type: 'boolean', default: false },
    'no-scrapy': { type: 'boolean', default: false },
    python: { type: 'string', default: '/usr/bin/python3' },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    render: { type: 'string' },
  },
});
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
if (opts.render) {
  // Only renders a saved run (its .tmp/RESULTS.json) again, e.g. after a change to the report's wording.
  const saved = JSON.parse(readFileSync(opts.render, 'utf8'));
  const text = markdown(saved.results, saved.meta);
  if (opts.write) writeFileSync(here('RESULTS.md'), text);
  else console.log(text);
  process.exit(0);
}
const scale = opts.quick ? 0.2 : 1;
const sized = (name, full) => Number(opts[name] ?? Math.round(full * scale));
const counts = {
  count: sized('count', 20_000),
  autoscaled: sized('autoscaled-count', Number(opts.count ?? 20_000)),
  slow: sized('slow-count', 4000),
  single: sized('single-count', 10_000),
  bytes: sized('bytes-count', 100_000),
  profile: sized('profile-count', 2000),
};
const only = new Set(opts.only.split(','));
const log = (message) => console.error(`[bench:engine ${new Date().toISOString().slice(11, 19)}] ${message}`);

const today = pathToFileURL(here('../../dist/index.js')).href;
const builds = [{ id: 'today', label: 'today, default options', impl: today }];
const lean = {
  id: 'lean',
  label: "today, `maxStalls: 0`, `handledRequests: 'request'`, `workerStats: false`",
  impl: today,
  queueOptions: { maxStalls: 0, handledRequests: 'request', workerStats: false },
};
if (!opts['no-anchor']) {
  log(`building the 0.1 code from git (${ANCHOR_COMMIT.slice(0, 7)})`);
  builds.push({
    id: 'v01',
    label: `0.1 (commit ${ANCHOR_COMMIT.slice(0, 7)}, built from git)`,
    impl: buildAnchor(),
  });
}
const pythonPath = sharedPath('vendor/scrapy-redis/src');
// Debian's python3-scrapy and python3-redis (apt-get install python3-scrapy python3-redis) under --python.
const pythonReady = () =>
  spawnSync(opts.python, ['-c', 'import scrapy, redis, scrapy_redis'], {
    env: { ...process.env, PYTHONPATH: pythonPath },
    stdio: 'ignore',
  }).status === 0;
const scrapy = !opts['no-scrapy'] && pythonPath !== undefined && pythonReady();
if (!opts['no-scrapy'] && !scrapy) {
  log(
    `the scrapy-redis rows are skipped: needs shared/vendor/scrapy-redis above this folder and ${opts.python} with scrapy and redis (Debian: apt-get install python3-scrapy python3-redis)`,
  );
}

const server = await startRedisServer();
const redis = new Redis(server.url);
const ctx = { redis, redisUrl: server.url, warmup: Number(opts.warmup), python: opts.python, pythonPath };
const crawleeVersion = JSON.parse(
  readFileSync(here('../../../../node_modules/crawlee/package.json'), 'utf8'),
).version;
const meta = {
  date: new Date().toISOString(),
  command: `npm run bench:engine -- ${process.argv.slice(2).join(' ')}`.trim(),
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()})`,
  node: process.versions.node,
  redisVersion: parseInfo(await redis.info('server')).redis_version,
  crawlee: crawleeVersion,
  counts,
  loadBefore: loadavg()
    .map((x) => x.toFixed(2))
    .join(', '),
};
const startedAt = Date.now();
const results = { crawl: [], single: [], bytes: [], profile: [] };

/** One crawl row per build (interleaved, so drifting machine load hits every build alike), then scrapy-redis. */
async function crawlRows(group, row, { withLean = false, withScrapy = false } = {}) {
  const list = withLean ? [builds[0], lean, ...builds.slice(1)] : builds;
  for (const build of list) {
    log(`${group}: ${build.label}`);
    const m = await measureCrawl(ctx, { ...row, impl: build.impl, queueOptions: build.queueOptions });
    results.crawl.push({ group, build: build.label, ...m });
    log(
      `  ${m.cpuUs.toFixed(1)} µs, ${m.commands.toFixed(2)} commands per request, ${Math.round(m.rate)} req/s, handled ${m.handled}`,
    );
  }
  if (withScrapy && scrapy) {
    log(`${group}: scrapy-redis`);
    const m = await measureScrapy(ctx, { workload: row.workload, count: row.count, workers: row.workers });
    results.crawl.push({
      group,
      build: 'scrapy-redis scheduler (`request_seen`, `push`, `pop`)',
      scrapy: true,
      ...m,
    });
    log(
      `  ${m.cpuUs.toFixed(1)} µs, ${m.commands.toFixed(2)} commands per request, ${Math.round(m.rate)} pops/s`,
    );
  }
}

try {
  const shaped = { workload: 'shaped', count: counts.count, workers: 2, concurrency: 50 };
  if (only.has('shaped'))
    await crawlRows('shaped, concurrency 50', shaped, { withLean: true, withScrapy: true });
  if (only.has('autoscaled'))
    await crawlRows('shaped, autoscaled pool', { ...shaped, count: counts.autoscaled, concurrency: null });
  if (only.has('slow'))
    await crawlRows('shaped, 200 ms handler, concurrency 20', {
      ...shaped,
      count: counts.slow,
      concurrency: 20,
      handlerMs: 200,
    });
  if (only.has('realistic') && hasRealistic()) {
    const realistic = { ...shaped, workload: 'realistic' };
    await crawlRows('realistic, concurrency 50', realistic, { withScrapy: true });
    await crawlRows('realistic + withScrapyFingerprint, concurrency 50', { ...realistic, fingerprint: true });
  }
  if (only.has('single')) {
    for (const build of builds) {
      log(`one worker, ${counts.single} requests: ${build.label}`);
      const m = await measureCrawl(ctx, {
        workload: 'shaped',
        count: counts.single,
        workers: 1,
        concurrency: 50,
        impl: build.impl,
      });
      results.single.push({ build: build.label, id: build.id, ...m });
      log(`  ${Math.round(m.rate)} req/s`);
    }
  }
  if (only.has('bytes')) {
    const impls = [
      ...builds.map((b) => [b.label, b.impl]),
      ...(scrapy ? [['scrapy-redis (SADD + pickled ZADD)', 'scrapy-redis']] : []),
    ];
    for (const kind of ['normalized', 'fingerprint', 'plain']) {
      for (const [label, impl] of impls) {
        if (impl === 'scrapy-redis' && kind !== 'normalized') continue; // it stores the same fingerprint and pickle for all three
        log(`bytes per pending request, ${kind} uniqueKeys, ${counts.bytes} requests: ${label}`);
        const perPending = await measureBytes(ctx, { impl, kind, count: counts.bytes });
        results.bytes.push({ kind, build: label, perPending });
        log(`  ${perPending.toFixed(1)} B`);
      }
    }
  }
  if (only.has('profile')) {
    for (const build of builds) {
      log(`MONITOR profile, ${counts.profile} requests: ${build.label}`);
      results.profile.push({
        build: build.label,
        ...(await monitorProfile(ctx, {
          workload: 'shaped',
          count: counts.profile,
          workers: 2,
          concurrency: 50,
          impl: build.impl,
        })),
      });
    }
  }
} finally {
  meta.loadAfter = loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  meta.minutes = (Date.now() - startedAt) / 60_000;
  redis.disconnect();
  await server.destroy();
}

const text = markdown(results, meta);
console.log(text);
mkdirSync(here('.tmp'), { recursive: true });
writeFileSync(here('.tmp/RESULTS.json'), `${JSON.stringify({ meta, results }, null, 2)}\n`);
if (opts.json) console.log(JSON.stringify({ meta, results }, null, 2));
if (opts.write) {
  writeFileSync(here('RESULTS.md'), text);
  log(`wrote ${here('RESULTS.md')}`);
}

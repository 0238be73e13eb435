#!/usr/bin/env node
// `npm run bench:scale` (and the last part of `npm run bench`): the scale benchmark. 5,000,000 requests
// through the queue's public API on a redis-server of the bench's own (free loopback port, default config: no
// maxmemory, no RDB saves, no AOF; a fresh server per measurement so no run inherits another's fragmentation),
// stopped by PID. For each layout: add rate and lock-and-handle rate at 100k, 1M and the full size in the queue;
// Redis bytes per pending request (used_memory delta) and per handled request; a worker restart with the full size
// handled and a few pending (time to first request, RSS). Side by side: the 0.1 layout (built from git, the anchor),
// Crawlee's MemoryStorage up to --memory-storage-max, and crawlee-python's published figures as a cited row.
// It is a benchmark, not a test: nothing here fails on a missed target; the table says which were missed.
// Needs the built package (`npx turbo run build --filter=crawlee-redis-queue...`). Writes RESULTS.md here, every
// measurement as JSON in .tmp/RESULTS.json.
//
// Options: --size 5000000  --checkpoints 100000,1000000,<size>  --window 20000 (requests per lock-and-handle
//          window)  --add-window 50000  --concurrency 50  --modes request,key,bits (handledRequests modes, when the
//          package has them)  --no-anchor  --anchor-size 1000000 (the 0.1 anchor's count when the package is newer:
//          its costs are linear, and 5M of it would add ~6 min)  --memory-storage-max 1000000 (0 = skip)  --restart-pending 10
//          --pending-only (rates and B/pending only: no handled phase, restart, probes or MemoryStorage)
//          --section bench-scale (the RESULTS.md/docs markers to write between)  --samples 5 (MEMORY USAGE samples in the key breakdown)  --warmup 20000 (requests each measuring process
//          adds and handles on a queue of its own first)  --probes 100000 (never-seen requests added to the queue of
//          handled ones: the measured false-positive rate of the handled store)  --bits-probes 1000000 (the same for
//          'bits', whose rate of 1e-6 needs the larger sample)  --json  --write (docs/scale-and-memory.md section)
import console from 'node:console';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { parseInfo } from '../redis-info.mjs';
import { buildAnchor, ANCHOR_COMMIT } from './anchor.mjs';
import { runChild } from './children.mjs';
import { markdown, targetsOf, writeSection } from './report.mjs';

const { values: opts } = parseArgs({
  options: {
    size: { type: 'string', default: '5000000' },
    checkpoints: { type: 'string' },
    window: { type: 'string', default: '20000' },
    'add-window': { type: 'string', default: '50000' },
    concurrency: { type: 'string', default: '50' },
    modes: { type: 'string', default: 'request,key,bits' },
    'no-anchor': { type: 'boolean', default: false },
    'anchor-size': { type: 'string', default: '1000000' },
    'memory-storage-max': { type: 'string', default: '1000000' },
    'restart-pending': { type: 'string', default: '10' },
    samples: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '20000' },
    probes: { type: 'string', default: '100000' },
    'bits-probes': { type: 'string', default: '1000000' },
    'pending-only': { type: 'boolean', default: false },
    section: { type: 'string', default: 'bench-scale' },
    json: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
  },
});
const size = Number(opts.size);
const checkpoints = (opts.checkpoints ? opts.checkpoints.split(',').map(Number) : [100_000, 1_000_000, size])
  .filter((c, i, all) => c <= size && all.indexOf(c) === i)
  .sort((a, b) => a - b);
const common = {
  keyPrefix: 'scale',
  window: Number(opts.window),
  addWindow: Number(opts['add-window']),
  concurrency: Number(opts.concurrency),
  samples: Number(opts.samples),
  warmup: Number(opts.warmup),
};
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const log = (message) => console.error(`[bench:scale ${new Date().toISOString().slice(11, 19)}] ${message}`);

const current = await import('crawlee-redis-queue');
const { PACKAGE_VERSION } = current;
// The package has the handledRequests modes when it exports their error (the version still reads 0.1.x until a
// release): then it is measured per mode, with the 0.1 layout built from git beside it.
const currentIsAnchor = !('HandledModeMismatchError' in current);
const layouts = [];
if (currentIsAnchor) {
  layouts.push({ label: `0.1 layout (crawlee-redis-queue ${PACKAGE_VERSION}, full request JSON)`, impl: 'crawlee-redis-queue', queueOptions: {} });
} else {
  for (const mode of opts.modes.split(',')) {
    // 'bits' is sized for what the run puts in (the handled phase: size + restart-pending), at 1e-6.
    const queueOptions = mode === 'bits' ? { handledRequests: mode, handledBloom: { expectedRequests: size + Number(opts['restart-pending']), falsePositiveRate: 1e-6 } } : { handledRequests: mode };
    layouts.push({ label: `crawlee-redis-queue ${PACKAGE_VERSION}, handledRequests '${mode}'`, impl: 'crawlee-redis-queue', queueOptions, mode });
  }
  if (!opts['no-anchor']) {
    log(`building the 0.1 anchor from ${ANCHOR_COMMIT.slice(0, 12)}`);
    const n = Math.min(size, Number(opts['anchor-size']));
    layouts.push({ label: `0.1 layout (anchor, ${ANCHOR_COMMIT.slice(0, 7)}, ${n.toLocaleString('en-US')} requests)`, impl: buildAnchor(), queueOptions: {}, size: n });
  }
}

/** Runs `fn(server)` on a fresh redis-server and always stops it by PID. */
async function withServer(fn) {
  const server = await startRedisServer();
  try {
    return await fn(server);
  } finally {
    await server.destroy();
  }
}

/** Cpus_allowed_list of this process (Linux), or undefined when all of the machine's CPUs are allowed. */
function cpusAllowed() {
  try {
    const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return list && list !== `0-${cpus().length - 1}` ? list : undefined;
  } catch {
    return undefined;
  }
}

const meta = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()})`,
  node: process.versions.node,
  crawlee: JSON.parse(readFileSync(here('../../../../node_modules/crawlee/package.json'), 'utf8')).version,
  loadAverage: loadavg().map((x) => x.toFixed(1)).join(', '),
  // The CPUs this process may run on (`taskset -c 0 npm run bench:scale` keeps the run on one core; its children
  // inherit it). Linux only; undefined elsewhere.
  cpusAllowed: cpusAllowed(),
  size,
  checkpoints,
  ...common,
};
const t0 = Date.now();
const rows = [];
for (const layout of layouts) {
  const n = layout.size ?? size;
  const cps = [...new Set([...checkpoints.filter((c) => c <= n), n])].sort((a, b) => a - b);
  const row = { label: layout.label, backend: 'redis', queueOptions: layout.queueOptions, mode: layout.mode };
  rows.push(row);
  const base = { ...common, backend: 'redis', impl: layout.impl, queueOptions: layout.queueOptions, label: layout.label };
  log(`${layout.label}: ${n} pending`);
  row.pending = await withServer(async (server) => {
    const probe = new Redis(server.url);
    meta.redisVersion = parseInfo(await probe.info('server')).redis_version;
    probe.disconnect();
    return runChild('driver.mjs', { ...base, redisUrl: server.url, name: 'pending', phase: 'pending', checkpoints: cps });
  });
  if (opts['pending-only']) continue;
  log(`${layout.label}: ${n} handled + ${opts['restart-pending']} pending, then a worker restart`);
  await withServer(async (server) => {
    row.handled = await runChild('driver.mjs', { ...base, redisUrl: server.url, name: 'handled', phase: 'handled', n, pendingExtra: Number(opts['restart-pending']) });
    row.restart = await runChild('restart.mjs', { ...base, redisUrl: server.url, name: 'handled', expectPending: Number(opts['restart-pending']) });
    log(`  restart: first request ${Math.round(row.restart.sinceOpenMs)} ms after open, RSS ${Math.round(row.restart.rss / 2 ** 20)} MiB`);
    // 'bits' gets the larger sample: at 1e-6 a few false positives need about a million never-seen requests.
    const probes = layout.mode === 'bits' ? Number(opts['bits-probes']) : Number(opts.probes);
    if (probes > 0) {
      row.probe = await runChild('driver.mjs', { ...base, warmup: 0, redisUrl: server.url, name: 'handled', phase: 'probe', n, pendingExtra: Number(opts['restart-pending']), probes });
    }
  });
}

// The Redis side's floor at the same sizes (bare-floor.mjs): one HSET and one RPUSH per entry, nothing else.
log('the Redis floor (HSET + RPUSH per entry) at each size');
const floor = await runChild('bare-floor.mjs', { checkpoints, window: common.addWindow });

const memMax = opts['pending-only'] ? 0 : Math.min(size, Number(opts['memory-storage-max']));
if (memMax > 0) {
  const memCheckpoints = [...new Set([...checkpoints.filter((c) => c <= memMax), memMax])].sort((a, b) => a - b);
  const row = { label: `Crawlee MemoryStorage (${memMax.toLocaleString('en-US')} requests, Node heap)`, backend: 'memory' };
  const execArgv = ['--expose-gc', '--max-old-space-size=12288'];
  log(`MemoryStorage: ${memMax} pending`);
  try {
    row.pending = await runChild('driver.mjs', { ...common, backend: 'memory', name: 'pending', phase: 'pending', checkpoints: memCheckpoints }, { execArgv, timeoutSecs: 900 });
    row.handled = await runChild('driver.mjs', { ...common, backend: 'memory', name: 'handled', phase: 'handled', n: memMax, pendingExtra: 0 }, { execArgv, timeoutSecs: 900 });
  } catch (error) {
    row.error = error.message;
    log(`  MemoryStorage failed: ${error.message}`);
  }
  rows.push(row);
}
meta.minutes = (Date.now() - t0) / 60000;

meta.pendingOnly = opts['pending-only'];
meta.floor = floor;
const section = markdown(rows, meta) + `\n\nRun took ${meta.minutes.toFixed(1)} min.`;
console.log(section);
for (const r of rows) for (const t of targetsOf(r)) if (!t.met) log(`target missed: ${r.label}: ${t.name}: ${t.value}`);
const json = JSON.stringify({ meta, rows }, null, 2);
if (opts.json) console.log(json);
mkdirSync(here('./.tmp'), { recursive: true });
const tag = opts.section;
writeFileSync(here(tag === 'bench-scale' ? './.tmp/RESULTS.json' : `./.tmp/RESULTS-${tag}.json`), json);
writeSection(section, here('./RESULTS.md'), tag);
if (opts.write) writeSection(section, here('../../docs/scale-and-memory.md'), tag);
log(`wrote ${here('./RESULTS.md')}${opts.write ? ' and the docs/scale-and-memory.md section' : ''}`);

#!/usr/bin/env node
// `npm run bench` (politeness fleet part): a polite crawl by real Crawlee worker processes against its bound. For each
// (hosts H, minDelaySecs D) and worker count, W BasicCrawler processes (concurrency 20, `politeness: { minDelaySecs:
// D, maxConcurrencyPerHost: 1 }`, otherwise default options) crawl H hosts; each handler fetches the bench's local
// site, which records when each host's requests arrive. The bound is H / D requests/s: the achieved rate is
// (requests - H) / (last arrival - first arrival), since each host's first request needs no gap. The site also
// reports the smallest gap between two arrivals of one host (never below D). A redis-server of the bench's own
// (free loopback port), stopped by PID; the shared 6379 is never touched. Needs the built package.
// Writes RESULTS.md here (between <!-- bench-polite-fleet:start/end -->) with --write.
//
// Options: --rows '1x0.05x200,1x0.25x40,1x1x12,50x0.5x1000,1000x1x10000' (hosts x delay x requests)
//          --workers 2,4  --concurrency 20  --write  --json
//          --trace /tmp/t (each worker writes its queue calls and handler starts to /tmp/t-<row>.<pid>.jsonl)
//          --queue-options '{"maxHostWaitSecs":0,"idleBackoff":false}' (extra worker options: the blind-polling anchor)
import console from 'node:console';
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath } from 'node:url';
import { startRedisServer } from '@crawlee-distributed/test-utils';

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '1x0.05x200,1x0.25x40,1x1x12,50x0.5x1000,1000x1x10000' },
    workers: { type: 'string', default: '2,4' },
    concurrency: { type: 'string', default: '20' },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'queue-options': { type: 'string', default: '{}' },
    trace: { type: 'string' },
  },
});
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { RedisStorageClient, RedisQueueAdmin } = await import('crawlee-redis-queue');
const server = await startRedisServer();
const keyPrefix = 'pfleet';
const load = loadavg().map((x) => x.toFixed(1)).join(', ');
const started = Date.now();

// The site: arrival times (ms, this process's monotonic clock) per host.
let arrivals = new Map();
const site = createServer((req, res) => {
  const t = performance.now();
  const host = req.url.split('/')[1];
  if (!arrivals.has(host)) arrivals.set(host, []);
  arrivals.get(host).push(t);
  res.end('ok');
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

function startWorker(cfg) {
  const child = fork(here('./fleet-worker.mjs'), [JSON.stringify(cfg)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise((resolve, reject) => {
    child.on('message', (m) => m?.type === 'ready' && resolve());
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  const done = new Promise((resolve, reject) => {
    child.on('message', (m) => m?.type === 'done' && resolve(m.handled));
    child.once('exit', (code) => code !== 0 && reject(new Error(`worker exited (${code})`)));
  });
  return { child, ready, done };
}

async function row(hosts, delay, requests, workers) {
  const queueName = `fleet-${hosts}-${delay}-${workers}-${Date.now()}`;
  const politeness = { minDelaySecs: delay, maxConcurrencyPerHost: 1 };
  const storage = new RedisStorageClient({ redis: server.url, keyPrefix, politeness, workerStats: false });
  await storage.requestQueues().getOrCreate(queueName);
  const client = storage.requestQueue(queueName);
  for (let i = 0; i < requests; i += 1000) {
    const batch = [];
    for (let j = i; j < Math.min(requests, i + 1000); j++) {
      const url = `http://h${j % hosts}.test/p/${j}`;
      batch.push({ url, uniqueKey: url, method: 'GET', userData: {} });
    }
    await client.batchAddRequests(batch);
  }
  const cfg = { redisUrl: server.url, keyPrefix, queueName, site: siteUrl, concurrency: Number(opts.concurrency), politeness, queueOptions: JSON.parse(opts['queue-options']), trace: opts.trace && `${opts.trace}-${hosts}x${delay}x${workers}` };
  const fleet = Array.from({ length: workers }, () => startWorker(cfg));
  await Promise.all(fleet.map((w) => w.ready));
  arrivals = new Map();
  for (const w of fleet) w.child.send({ type: 'go' });
  const handled = (await Promise.all(fleet.map((w) => w.done))).reduce((a, b) => a + b, 0);
  const all = [...arrivals.values()].flat();
  const span = (Math.max(...all) - Math.min(...all)) / 1000;
  let minGapMs = Infinity;
  for (const times of arrivals.values()) for (let i = 1; i < times.length; i++) minGapMs = Math.min(minGapMs, times[i] - times[i - 1]);
  const rate = (all.length - arrivals.size) / span;
  const bound = hosts / delay;
  const result = { hosts, delay, requests, workers, handled, arrivals: all.length, spanSecs: span, rate, bound, ratio: rate / bound, minGapMs };
  console.log(JSON.stringify(result));
  const admin = new RedisQueueAdmin({ redis: server.url, keyPrefix, name: queueName });
  await admin.drop();
  await admin.close();
  await storage.close();
  return result;
}

const rows = [];
for (const spec of opts.rows.split(',')) {
  const [hosts, delay, requests] = spec.split('x').map(Number);
  for (const workers of opts.workers.split(',').map(Number)) rows.push(await row(hosts, delay, requests, workers));
}
site.close();
await server.stop();

const int = (x) => Math.round(x).toLocaleString('en-US');
const md = [
  `Polite crawl by Crawlee worker processes, ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, Node ${process.versions.node}, ` +
    `load average at start ${load} (a shared machine). BasicCrawler at concurrency ${opts.concurrency} per process, \`politeness: { minDelaySecs: D, ` +
    'maxConcurrencyPerHost: 1 }`, default options otherwise; each handler fetches a local site once, which records the arrivals. ' +
    'Achieved rate = (requests - hosts) / (last arrival - first arrival); bound = hosts / D; smallest gap = between two arrivals of one host at the site.',
  '',
  '| hosts | D (s) | requests | workers | took (s) | achieved (req/s) | bound (req/s) | achieved / bound | smallest gap at the site (ms) |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) => `| ${int(r.hosts)} | ${r.delay} | ${int(r.requests)} | ${r.workers} | ${r.spanSecs.toFixed(1)} | ${r.rate.toFixed(1)} | ${r.bound.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.minGapMs === Infinity ? '–' : r.minGapMs.toFixed(1)} |`,
  ),
  '',
  `Run took ${((Date.now() - started) / 60000).toFixed(1)} min.`,
].join('\n');
console.log(`\n${md}\n`);
if (opts.json) console.log(JSON.stringify(rows, null, 2));
if (opts.write) {
  const path = here('./RESULTS.md');
  const START = '<!-- bench-polite-fleet:start -->';
  const END = '<!-- bench-polite-fleet:end -->';
  let text = readFileSync(path, 'utf8');
  if (!text.includes(START)) text += `\n## Polite crawl by worker processes (\`bench/politeness/fleet-rate.mjs\`)\n\n${START}\n${END}\n`;
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  writeFileSync(path, `${text.slice(0, s + START.length)}\n${md}\n${text.slice(e)}`);
  console.log(`wrote ${path}`);
}
process.exit(0);

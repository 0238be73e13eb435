#!/usr/bin/env node
// `npm run bench` (liveness part): worker liveness and idle cost, on a redis-server of the bench's own (free loopback
// port), stopped by PID; the shared 6379 is never touched. Needs the built package.
//
// 1. Recovery after SIGKILL: three worker processes (BasicCrawler, handler sleeps --handler-ms, fixed concurrency,
//    openRedisRequestQueue with default options: Crawlee's 65 s lock) crawl one queue of --requests requests; once
//    --kill-after are handled, the first worker is SIGKILLed while it holds locks. Measured from the kill: until
//    none of the locks it held is its own any more (returned), and until every one of those requests is handled by
//    a survivor. --kills runs (fresh queue each), median. --anchor also runs one kill with `liveness: false` (the
//    0.1 behaviour: the locks return after the lock time).
// 2. Idle worker: one Crawlee worker on a queue whose only request another client holds locked (so the worker
//    neither finds work nor finishes) for --idle-secs: commands it sends per second (scripts count once; from the
//    worker's patched ioredis) and commands Redis runs per second (INFO commandstats, script-internal calls
//    included), for a plain, a sharded (4) and a polite queue whose one host waits.
// Writes RESULTS.md here (between <!-- bench-liveness:start/end -->) with --write; --json prints every number.
//
// Options: --kills 5  --requests 3000  --kill-after 400  --handler-ms 20  --concurrency 10  --idle-secs 10
//          --anchor  --write  --json
import console from 'node:console';
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startRedisServer } from '@crawlee-distributed/test-utils';
import { callsDelta, commandCalls } from '../redis-info.mjs';

const { values: opts } = parseArgs({
  options: {
    kills: { type: 'string', default: '5' },
    requests: { type: 'string', default: '3000' },
    'kill-after': { type: 'string', default: '400' },
    'handler-ms': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '10' },
    'idle-secs': { type: 'string', default: '10' },
    anchor: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const WORKER = here('./worker.mjs');
const { RedisStorageClient, RedisQueueAdmin } = await import('crawlee-redis-queue');

const server = await startRedisServer();
const redis = new Redis(server.url);
const keyPrefix = 'lbench';
const load = loadavg().map((x) => x.toFixed(1)).join(', ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startWorker(cfg) {
  const child = fork(WORKER, [JSON.stringify(cfg)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('error', () => undefined);
  const ready = new Promise((resolve, reject) => {
    child.on('message', (m) => m?.type === 'ready' && resolve(m));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  const sent = [];
  child.on('message', (m) => m?.type === 'sent' && sent.push(m));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, ready, sent, exited };
}

async function seed(queueName, n, options = {}) {
  const storage = new RedisStorageClient({ redis: server.url, keyPrefix, ...options });
  await storage.requestQueues().getOrCreate(queueName);
  const client = storage.requestQueue(queueName);
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, j) => {
      const url = `http://localhost/p/${i + j}`;
      return { url, uniqueKey: url, method: 'GET', userData: {} };
    });
    await client.batchAddRequests(batch);
  }
  return { storage, client };
}

/** One kill: returns the ms from the SIGKILL until the victim's locks returned and were handled, and more. */
async function killRun(run, queueOptions) {
  const queueName = `kill-${run}-${Date.now()}`;
  const { storage } = await seed(queueName, Number(opts.requests), queueOptions);
  const admin = new RedisQueueAdmin({ redis: server.url, keyPrefix, name: queueName });
  const cfg = { redisUrl: server.url, keyPrefix, queueName, handlerMs: Number(opts['handler-ms']), concurrency: Number(opts.concurrency), queueOptions };
  const workers = [0, 1, 2].map(() => startWorker(cfg));
  const readies = await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.send({ type: 'go' });
  const victimKey = readies[0].clientKey;
  const ownerKey = admin.keys.owner;
  let held;
  for (;;) {
    const stats = await admin.stats();
    if (stats.handled >= Number(opts['kill-after'])) {
      held = Object.entries(await redis.hgetall(ownerKey)).filter(([, o]) => o === victimKey).map(([id]) => id);
      if (held.length > 0) break;
    }
    await sleep(5);
  }
  workers[0].child.kill('SIGKILL');
  const killedAt = Date.now();
  let returnedMs;
  let handledMs;
  while (handledMs === undefined && Date.now() - killedAt < 300_000) {
    const [owners, data] = await Promise.all([redis.hmget(ownerKey, ...held), redis.hmget(admin.keys.data, ...held)]);
    if (returnedMs === undefined && owners.every((o) => o !== victimKey)) returnedMs = Date.now() - killedAt;
    if (data.every((d) => d === null)) handledMs = Date.now() - killedAt;
    else await sleep(20);
  }
  for (const w of workers.slice(1)) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await admin.drop();
  await admin.close();
  await storage.close();
  return { returnedMs, handledMs, held: held.length, lockSecs: readies[0].lockSecs };
}

/** Idle worker: commands/s it sends and Redis runs, while another client holds the queue's only request. */
async function idleRun(label, queueOptions, url = 'http://localhost/idle') {
  const queueName = `idle-${label}-${Date.now()}`;
  const storage = new RedisStorageClient({ redis: server.url, keyPrefix, ...queueOptions, workerStats: false });
  await storage.requestQueues().getOrCreate(queueName);
  const holder = storage.requestQueue(queueName, { clientKey: 'holder' });
  await holder.batchAddRequests([{ url, uniqueKey: url, method: 'GET', userData: {} }]);
  let locked = 0;
  while (locked === 0) locked = (await holder.listAndLockHead({ limit: 1, lockSecs: 3600 })).items.length;
  await holder.prolongRequestLock((await holder.listHead({ limit: 1 })).items[0].id, { lockSecs: 3600 });
  const w = startWorker({ redisUrl: server.url, keyPrefix, queueName, handlerMs: 0, concurrency: 10, queueOptions });
  await w.ready;
  w.child.send({ type: 'go' });
  await sleep(3000); // past start-up (queue checks, first polls)
  const before = await commandCalls(redis);
  const sentBefore = w.sent.at(-1);
  const secs = Number(opts['idle-secs']);
  await sleep(secs * 1000);
  const sentAfter = w.sent.at(-1);
  const delta = callsDelta(before, await commandCalls(redis));
  delete delta.info; // this bench's own reads
  const serverCalls = Object.values(delta).reduce((a, b) => a + b, 0);
  const elapsed = (sentAfter.at - sentBefore.at) / 1000;
  w.child.kill('SIGKILL');
  await w.exited;
  await new RedisQueueAdmin({ redis: server.url, keyPrefix, name: queueName }).drop();
  await storage.close();
  return {
    label,
    sentPerSec: (sentAfter.commands - sentBefore.commands) / elapsed,
    roundTripsPerSec: (sentAfter.roundTrips - sentBefore.roundTrips) / elapsed,
    serverPerSec: serverCalls / secs,
    commands: delta,
  };
}

const kills = [];
for (let k = 0; k < Number(opts.kills); k++) {
  kills.push(await killRun(k, {}));
  console.log(`kill ${k + 1}: ${JSON.stringify(kills.at(-1))}`);
}
const anchor = opts.anchor ? await killRun('anchor', { liveness: false }) : undefined;
if (anchor) console.log(`anchor (liveness: false): ${JSON.stringify(anchor)}`);
const idle = [
  await idleRun('plain', {}),
  await idleRun('sharded', { shards: 4 }),
  await idleRun('polite', { politeness: { minDelaySecs: 3600, maxConcurrencyPerHost: 1 } }),
];
for (const row of idle) console.log(`idle ${row.label}: ${JSON.stringify(row)}`);

const s = (ms) => (ms === undefined ? 'n/a' : (ms / 1000).toFixed(1));
const lines = [
  `Three worker processes, BasicCrawler (handler ${opts['handler-ms']} ms, concurrency ${opts.concurrency}), openRedisRequestQueue with default options (Crawlee's ${kills[0]?.lockSecs} s lock; liveness heartbeat 1 s, window 5 s); the first worker SIGKILLed after ${opts['kill-after']} of ${opts.requests} requests were handled, while it held locks; ${cpus().length} CPUs, load ${load} at start.`,
  '',
  '| run | locks held at the kill | returned (s after the kill) | all handled by survivors (s) |',
  '|---|---:|---:|---:|',
  ...kills.map((k, i) => `| kill ${i + 1} | ${k.held} | ${s(k.returnedMs)} | ${s(k.handledMs)} |`),
  `| **median** | | **${s(median(kills.map((k) => k.returnedMs)))}** | **${s(median(kills.map((k) => k.handledMs)))}** |`,
  ...(anchor ? [`| anchor: \`liveness: false\` (lock time) | ${anchor.held} | ${s(anchor.returnedMs)} | ${s(anchor.handledMs)} |`] : []),
  '',
  `Idle worker (one BasicCrawler, concurrency 10, on a queue whose only request another client holds), over ${opts['idle-secs']} s:`,
  '',
  '| queue | commands sent / s (a script counts once) | round trips / s | commands Redis runs / s (inside scripts too) |',
  '|---|---:|---:|---:|',
  ...idle.map((r) => `| ${r.label} | ${r.sentPerSec.toFixed(1)} | ${r.roundTripsPerSec.toFixed(1)} | ${r.serverPerSec.toFixed(1)} |`),
];
const table = lines.join('\n');
console.log(`\n${table}`);
if (opts.json) console.log(JSON.stringify({ kills, anchor, idle }, null, 2));
if (opts.write) {
  const file = here('./RESULTS.md');
  const start = '<!-- bench-liveness:start -->';
  const end = '<!-- bench-liveness:end -->';
  const text = existsSync(file) ? readFileSync(file, 'utf8') : `# Liveness benchmark\n\n\`node bench/liveness/run.mjs --write\` (part of \`npm run bench\`).\n\n${start}\n${end}\n`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
}
await redis.quit();
await server.stop();
process.exit(0);

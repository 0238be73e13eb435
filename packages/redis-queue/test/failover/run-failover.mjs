#!/usr/bin/env node
// `npm run test:failover`: worker processes crawl a local site through a Redis request queue on a local
// 3-master / 3-replica Redis Cluster (cluster-node-timeout 1000 ms); mid-crawl the master holding the queue's slot is
// SIGKILLed, its replica takes over, the killed node is restarted (it rejoins as the new master's replica) and the
// crawl completes. Each scenario runs without and with the `durability` option (WAIT for 1 replica). It measures
// what Redis' asynchronous replication loses: pages crawled twice, pages crawled again although their handled mark
// had been acknowledged, pages never crawled (a request lost), and the queue's counters at the end.
//
// Scenarios (kill point = share of the site's pages handled):
//   kill@25%, kill@60%          a plain SIGKILL of the master
//   lagged-kill@50%             first the replica is SIGSTOPped and the master cuts its link (CLIENT KILL TYPE
//                               slave), for --lag-ms: the master acknowledges writes it never replicates, as when
//                               a replica falls behind or its link flaps
//
// Exit code 1 when a crawl does not complete, or when with `durability` an acknowledged write was lost (a page never
// crawled, or crawled again after its acknowledged handled mark). Without it, losses are measured, not failed.
//
// Options: --pages 500  --workers 3  --concurrency 4  --page-ms 15  --lag-ms 800  --repeat 1
//          --only <scenario name prefix>  --write (writes the table into bench/cluster/FAILOVER.md between <!-- failover:start/end -->)
import console from 'node:console';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { clusterTopology, masterOfSlot, startRedisCluster, stopPid } from '@crawlee-distributed/test-utils';
import { RedisStorageClient } from 'crawlee-redis-queue';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    workers: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    'page-ms': { type: 'string', default: '15' },
    'lag-ms': { type: 'string', default: '800' },
    repeat: { type: 'string', default: '1' },
    only: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const PAGES = Number(args.pages);
const WORKERS = Number(args.workers);
const CONCURRENCY = Number(args.concurrency);
const PAGE_MS = Number(args['page-ms']);
const LAG_MS = Number(args['lag-ms']);
const REPEAT = Number(args.repeat);
const WORKER = fileURLToPath(new URL('./crawl-worker.mjs', import.meta.url));
const REPORT = fileURLToPath(new URL('../../bench/cluster/FAILOVER.md', import.meta.url));
const LOCK_SECS = 5;
const DURABILITY = { replicas: 1, timeoutSecs: 10 };

const children = (i) => [i + 1, i + 2, 2 * i].filter((n) => n <= PAGES);

/** The site: page i links to i+1, i+2 and 2i; every page is reachable from page 1. */
function startSite() {
  const server = createServer((req, res) => {
    const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1]);
    if (!(i >= 1 && i <= PAGES)) {
      res.writeHead(404).end();
      return;
    }
    setTimeout(() => {
      const links = children(i).map((n) => `<a href="/p/${n}">${n}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>${i}</h1>${links}</body></html>`);
    }, PAGE_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function parseLog(text) {
  const starts = new Map();
  const handled = new Map();
  const warnings = new Map();
  const errors = [];
  const samples = [];
  let finished = false;
  for (const line of text.split('\n')) {
    const [kind, a, b] = line.split(' ');
    const push = (map, i, ts) => map.set(i, [...(map.get(i) ?? []), ts]);
    if (kind === 'S') push(starts, Number(a), Number(b));
    else if (kind === 'H') push(handled, Number(a), Number(b));
    else if (kind === 'W') {
      warnings.set(b, (warnings.get(b) ?? 0) + 1);
      if (samples.length < 3) samples.push(line.slice(0, 300));
    }
    else if (kind === 'F') finished = true;
    else if (kind === 'E') errors.push(line);
  }
  return { starts, handled, warnings, samples, errors, finished };
}

async function runScenario(scenario, durability) {
  const dir = mkdtempSync(join(tmpdir(), 'failover-crawl-'));
  const cluster = await startRedisCluster({ masters: 3, replicas: 1, clusterNodeTimeoutMs: 1000 });
  const site = await startSite();
  const siteUrl = `http://127.0.0.1:${site.address().port}`;
  const keyPrefix = `fo${Date.now()}`;
  const queueName = 'site';
  const gateFile = join(dir, 'go');
  const admin = new Cluster(cluster.nodes, { redisOptions: { maxRetriesPerRequest: null } });
  admin.on('error', () => undefined);
  const workers = [];
  try {
    for (let w = 0; w < WORKERS; w++) {
      const resultFile = join(dir, `w${w}.log`);
      const config = { nodes: cluster.nodes, keyPrefix, queueName, siteUrl, concurrency: CONCURRENCY, lockSecs: LOCK_SECS, resultFile, gateFile, durability };
      const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, CRAWLEE_STORAGE_DIR: join(dir, `storage-${w}`), CRAWLEE_PERSIST_STORAGE: 'false' },
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
      const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
      workers.push({ child, resultFile, exited, stderr: () => stderr });
    }
    const logs = () => workers.map((w) => parseLog(existsSync(w.resultFile) ? readFileSync(w.resultFile, 'utf8') : ''));
    const deadline = Date.now() + 120_000;
    while (!workers.every((w) => existsSync(w.resultFile) && readFileSync(w.resultFile, 'utf8').startsWith('R '))) {
      if (Date.now() > deadline || workers.some((w) => w.child.exitCode !== null)) throw new Error(`workers did not start: ${workers.map((w) => w.stderr()).join('\n')}`);
      await sleep(50);
    }
    const slot = Number(await admin.cluster('KEYSLOT', `{${keyPrefix}:rq:${queueName}}`));
    const master = await masterOfSlot(cluster, slot);
    const nodes = await clusterTopology(cluster);
    const masterId = nodes.find((n) => n.port === master.port).id;
    const replica = cluster.servers.find((s) => s.port === nodes.find((n) => n.masterId === masterId).port);
    const crawlStart = Date.now();
    writeFileSync(gateFile, 'go');

    // Kill point: that share of the site's pages handled.
    const handledCount = () => new Set(logs().flatMap((l) => [...l.handled.keys()])).size;
    while (handledCount() < PAGES * scenario.at) {
      if (Date.now() > deadline) throw new Error('the crawl did not reach the kill point');
      await sleep(10);
    }
    if (scenario.lagMs > 0) {
      // The replica stops reading and its link is cut (it cannot reconnect while stopped): for lagMs the master
      // acknowledges writes that reach no replica, as when a replica falls behind or its link flaps.
      process.kill(replica.pid, 'SIGSTOP');
      const direct = new Redis({ host: '127.0.0.1', port: master.port });
      await direct.client('KILL', 'TYPE', 'slave');
      direct.disconnect();
      await sleep(scenario.lagMs);
    }
    const killedAt = Date.now();
    await stopPid(master.pid, 'SIGKILL');
    if (scenario.lagMs > 0) process.kill(replica.pid, 'SIGCONT');
    // The replica takes over once the other masters agree the master failed (about the node timeout).
    for (;;) {
      try {
        if ((await masterOfSlot(cluster, slot)).port === replica.port) break;
      } catch {
        /* no master serves the slot yet */
      }
      if (Date.now() > deadline) throw new Error('no failover');
      await sleep(50);
    }
    const downMs = Date.now() - killedAt;
    // The failed node comes back (as an orchestrator restarts it) and rejoins as the new master's replica.
    await master.restart();

    const codes = await Promise.race([Promise.all(workers.map((w) => w.exited)), sleep(Math.max(0, deadline - Date.now())).then(() => 'timeout')]);
    const crawlMs = Date.now() - crawlStart;
    const all = logs();
    const startsOf = (i) => all.flatMap((l) => l.starts.get(i) ?? []).sort((x, y) => x - y);
    const handledOf = (i) => all.flatMap((l) => l.handled.get(i) ?? []).sort((x, y) => x - y);
    let twice = 0;
    let ackedHandledLost = 0;
    const missing = [];
    for (let i = 1; i <= PAGES; i++) {
      const starts = startsOf(i);
      const handled = handledOf(i);
      if (handled.length === 0) missing.push(i);
      if (starts.length > 1) twice++;
      // Crawled again after an acknowledged handled mark: the mark was lost in the failover.
      if (handled.length > 0 && starts.some((ts) => ts > handled[0])) ackedHandledLost++;
    }
    const warnings = {};
    for (const l of all) for (const [code, n] of l.warnings) warnings[code] = (warnings[code] ?? 0) + n;
    const storage = new RedisStorageClient({ redis: admin, keyPrefix, workerStats: false });
    const info = await storage.requestQueue(queueName).get();
    return {
      scenario: scenario.name,
      durability: Boolean(durability),
      completed: Array.isArray(codes) && codes.every((c) => c === 0) && all.every((l) => l.finished),
      codes,
      errors: all.flatMap((l) => l.errors).slice(0, 3),
      warningSamples: all.flatMap((l) => l.samples).slice(0, 3),
      pages: PAGES,
      missing,
      twice,
      ackedHandledLost,
      warnings,
      downMs,
      crawlMs,
      counters: { total: info?.totalRequestCount, handled: info?.handledRequestCount, pending: info?.pendingRequestCount },
    };
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    admin.disconnect();
    site.close();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const scenarios = [
  { name: 'kill@25%', at: 0.25, lagMs: 0 },
  { name: 'kill@60%', at: 0.6, lagMs: 0 },
  { name: `lagged-kill@50% (replica cut off ${LAG_MS} ms)`, at: 0.5, lagMs: LAG_MS },
];
const results = [];
const started = Date.now();
for (let r = 0; r < REPEAT; r++) {
  for (const scenario of scenarios.filter((x) => !args.only || x.name.startsWith(args.only))) {
    for (const durability of [undefined, DURABILITY]) {
      const result = await runScenario(scenario, durability);
      results.push(result);
      console.log(JSON.stringify(result));
    }
  }
}
const totalSecs = Math.round((Date.now() - started) / 1000);

const row = (r) =>
  `| ${r.scenario} | ${r.durability ? `replicas 1, timeout ${DURABILITY.timeoutSecs} s` : 'off'} | ${r.completed ? 'yes' : `NO (${String(r.codes)})`} | ` +
  `${r.downMs} | ${(r.crawlMs / 1000).toFixed(1)} | ${r.twice} | ${r.ackedHandledLost} | ${r.missing.length} | ` +
  `${r.counters.handled}/${r.counters.total} (pending ${r.counters.pending}) | ${Object.entries(r.warnings).map(([k, v]) => `${k} ×${v}`).join(', ') || '—'} |`;
const table = [
  `${PAGES} pages, ${WORKERS} workers × concurrency ${CONCURRENCY}, ${PAGE_MS} ms per page, lock ${LOCK_SECS} s, ` +
    `3 masters + 3 replicas, cluster-node-timeout 1000 ms; ${results.length} runs in ${totalSecs} s (${new Date().toISOString().slice(0, 10)}).`,
  '',
  '| scenario | durability | crawl completed | slot down (ms) | crawl (s) | pages crawled twice | crawled again after an acknowledged handled mark | pages never crawled | queue counters at the end: handled/total | operations that threw (Crawlee retried them) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...results.map(row),
].join('\n');
console.log(`\n${table}\n`);
if (args.write) {
  const text = readFileSync(REPORT, 'utf8');
  const next = text.replace(/<!-- failover:start -->[\s\S]*<!-- failover:end -->/, `<!-- failover:start -->\n${table}\n<!-- failover:end -->`);
  writeFileSync(REPORT, next);
  console.log(`wrote ${REPORT}`);
}

const broken = results.filter((r) => !r.completed || (r.durability && (r.missing.length > 0 || r.ackedHandledLost > 0)));
if (broken.length > 0) {
  console.error(`FAILED: ${broken.map((r) => `${r.scenario} durability=${r.durability}: completed=${r.completed} missing=${r.missing.length} ackedHandledLost=${r.ackedHandledLost} ${r.errors.join(' ')}`).join('\n')}`);
  process.exit(1);
}
console.log('failover crawl: every crawl completed; with durability no acknowledged write was lost');
process.exit(0);

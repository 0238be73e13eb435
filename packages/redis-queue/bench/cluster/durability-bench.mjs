#!/usr/bin/env node
// `npm run bench:durability`: what the `durability` option costs. On a local Redis Cluster of 3 masters and 3
// replicas (loopback, no persistence), one process seeds a queue with N requests (adds) and crawls it with a no-op
// BasicCrawler at a fixed concurrency (locks + handled marks), once without the option and once with
// `durability: { replicas: 1 }`, interleaved, --repeat times; the table shows the medians, side by side, same run.
// It also counts the WAIT commands the master of the queue's slot ran (INFO commandstats): one WAIT covers the
// writes of one event-loop turn, so there are far fewer WAITs than writes.
//
// The first --warmup pairs are run and dropped (the machine's caches, the cluster's first allocations); the table
// shows the median and the range of the rest, so the run-to-run noise of a shared machine is visible.
//
// Options: --requests 10000  --concurrency 50  --repeat 5  --warmup 1  --write (into FAILOVER.md between <!-- durability:start/end -->)
import console from 'node:console';
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Cluster, Redis } from 'ioredis';

const { values: args } = parseArgs({
  options: {
    child: { type: 'string' },
    requests: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    repeat: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    write: { type: 'boolean', default: false },
  },
});

if (args.child) {
  // One measurement, in a fresh process: seed, then crawl.
  const cfg = JSON.parse(args.child);
  const { BasicCrawler, Configuration, log } = await import('crawlee');
  const { openRedisRequestQueue } = await import('crawlee-redis-queue');
  log.setLevel(log.LEVELS.WARNING);
  const redis = new Cluster(cfg.nodes, { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: null } });
  const queue = await openRedisRequestQueue(cfg.queueName, {
    redis,
    keyPrefix: cfg.keyPrefix,
    workerStats: false,
    ...(cfg.durability ? { durability: cfg.durability } : {}),
  });
  const requests = Array.from({ length: cfg.requests }, (_, i) => ({ url: `https://example.com/${i}` }));
  const seedStart = performance.now();
  // Seeding as a crawl does it: many concurrent addRequests of a few requests each (enqueueLinks of 50 handlers).
  for (let i = 0; i < requests.length; i += 10 * cfg.concurrency) {
    const slice = requests.slice(i, i + 10 * cfg.concurrency);
    await Promise.all(Array.from({ length: Math.ceil(slice.length / 10) }, (_, j) => queue.addRequests(slice.slice(10 * j, 10 * j + 10))));
  }
  const seedMs = performance.now() - seedStart;
  let last = 0;
  const crawler = new BasicCrawler(
    {
      requestQueue: queue,
      minConcurrency: cfg.concurrency,
      maxConcurrency: cfg.concurrency,
      useSessionPool: false,
      requestHandler() {
        last = performance.now();
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: false }),
  );
  const crawlStart = performance.now();
  const stats = await crawler.run();
  process.send({ seedRate: cfg.requests / (seedMs / 1000), crawlRate: stats.requestsFinished / ((last - crawlStart) / 1000), handled: stats.requestsFinished });
  process.exit(0);
}

const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const REPEAT = Number(args.repeat);
const WARMUP = Number(args.warmup);
const REPORT = fileURLToPath(new URL('./FAILOVER.md', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const { startRedisCluster, masterOfSlot } = await import('@crawlee-distributed/test-utils');

const cluster = await startRedisCluster({ masters: 3, replicas: 1 });
const admin = new Cluster(cluster.nodes);
const runs = { off: [], on: [] };
try {
  for (let r = 0; r < WARMUP + REPEAT; r++) {
    for (const mode of ['off', 'on']) {
      const keyPrefix = `bench${r}${mode}`;
      const queueName = 'q';
      const slot = Number(await admin.cluster('KEYSLOT', `{${keyPrefix}:rq:${queueName}}`));
      const master = await masterOfSlot(cluster, slot);
      const node = new Redis({ host: '127.0.0.1', port: master.port });
      const waits = async () => Number(/cmdstat_wait:calls=(\d+)/.exec(await node.info('commandstats'))?.[1] ?? 0);
      const before = await waits();
      const cfg = { nodes: cluster.nodes, keyPrefix, queueName, requests: REQUESTS, concurrency: CONCURRENCY, durability: mode === 'on' ? { replicas: 1, timeoutSecs: 5 } : undefined };
      const result = await new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [SELF, '--child', JSON.stringify(cfg)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        let got;
        child.on('message', (m) => (got = m));
        child.once('exit', (code) => (got ? resolve(got) : reject(new Error(`bench child exited ${code}`))));
      });
      result.waitsPerRequest = ((await waits()) - before) / REQUESTS;
      node.disconnect();
      if (r >= WARMUP) runs[mode].push(result);
      console.log(r < WARMUP ? `${mode} (warm-up, dropped)` : mode, JSON.stringify(result));
    }
  }
} finally {
  admin.disconnect();
  await cluster.stop();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const m = (mode, field) => median(runs[mode].map((x) => x[field]));
const range = (mode, field) => {
  const xs = runs[mode].map((x) => x[field]);
  return `${fmt(m(mode, field))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
};
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores; 3 masters + 3 replicas on loopback (Redis 7, no persistence); one process, ` +
    `${fmt(REQUESTS)} requests, concurrency ${CONCURRENCY}; median (and range) of ${REPEAT} interleaved runs after ${WARMUP} dropped warm-up pair, each in a fresh process.`,
  '',
  '| durability | adds (req/s) | crawl: lock + handled (req/s) | WAITs per request |',
  '| --- | --- | --- | --- |',
  `| off | ${range('off', 'seedRate')} | ${range('off', 'crawlRate')} | ${m('off', 'waitsPerRequest').toFixed(3)} |`,
  `| \`{ replicas: 1 }\` | ${range('on', 'seedRate')} | ${range('on', 'crawlRate')} | ${m('on', 'waitsPerRequest').toFixed(3)} |`,
  `| median with / without | ${(m('on', 'seedRate') / m('off', 'seedRate')).toFixed(2)} | ${(m('on', 'crawlRate') / m('off', 'crawlRate')).toFixed(2)} | |`,
  '',
  'Reproduce: `npm run bench:durability` in `packages/redis-queue` (after `npx turbo run build --filter=crawlee-redis-queue`).',
].join('\n');
console.log(`\n${table}\n`);
if (args.write) {
  const text = readFileSync(REPORT, 'utf8');
  writeFileSync(REPORT, text.replace(/<!-- durability:start -->[\s\S]*<!-- durability:end -->/, `<!-- durability:start -->\n${table}\n<!-- durability:end -->`));
  console.log(`wrote ${REPORT}`);
}
process.exit(0);

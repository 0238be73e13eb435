// A worker restart: a fresh process opens a queue that already holds many handled and a few pending requests, and
// takes its first request. Measures the time from process start (Node's own timeOrigin) and from the open call to
// the first request, and the process RSS then. Public API only (openRedisRequestQueue + Crawlee's RequestQueue).
//
// argv[2] is JSON: { impl, redisUrl, keyPrefix, name, queueOptions, expectPending }
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { Configuration, log } from 'crawlee';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({ persistStorage: false, purgeOnStart: false });

const { openRedisRequestQueue } = await import(cfg.impl);
const tOpen = performance.now();
const queue = await openRedisRequestQueue(cfg.name, { redis: cfg.redisUrl, keyPrefix: cfg.keyPrefix, lockSecs: 600, config, ...cfg.queueOptions });
const first = await queue.fetchNextRequest();
const tFirst = performance.now();
if (!first) throw new Error('the restarted worker found no pending request');
let pending = 1;
await queue.markRequestHandled(first);
for (let r = await queue.fetchNextRequest(); r; r = await queue.fetchNextRequest()) {
  pending++;
  await queue.markRequestHandled(r);
}
const info = await queue.client.get();
console.log(
  JSON.stringify({
    sinceProcessStartMs: tFirst, // performance.now() counts from the process's time origin
    sinceOpenMs: tFirst - tOpen,
    rss: process.memoryUsage().rss,
    heapUsed: process.memoryUsage().heapUsed,
    pendingSeen: pending,
    expectPending: cfg.expectPending,
    info,
  }),
);
process.exit(0);

// One worker process of the polite fleet benchmark (fleet-rate.mjs): a BasicCrawler at a fixed concurrency on a
// polite Redis queue (openRedisRequestQueue, default options plus the run's politeness); its handler fetches the
// bench's site once per request (`<site>/<host>/<path>`), so the site sees each host's requests as a server would.
// It tells the parent { type: 'ready' }, waits for { type: 'go' }, crawls, and sends { type: 'done', handled }.
//
// argv[2] is JSON: { redisUrl, keyPrefix, queueName, site, concurrency, politeness, queueOptions }
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';
/* global fetch */
import { BasicCrawler, Configuration, log } from 'crawlee';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.ERROR);
const queue = await openRedisRequestQueue(cfg.queueName, {
  redis: cfg.redisUrl,
  keyPrefix: cfg.keyPrefix,
  requestHandlerTimeoutSecs: 60,
  politeness: cfg.politeness,
  workerStats: false,
  ...cfg.queueOptions,
});
let handled = 0;
// --trace: one JSON line per queue call and handler (ms on this process's clock) to <trace>.<pid>.jsonl.
const trace = [];
const T0 = performance.now();
if (cfg.trace) {
  const client = queue.client;
  for (const name of ['listAndLockHead', 'updateRequest', 'getRequest', 'prolongRequestLock', 'deleteRequestLock']) {
    const original = client[name].bind(client);
    client[name] = async (...args) => {
      const t = performance.now() - T0;
      const result = await original(...args);
      const entry = { op: name, t: +t.toFixed(2), ms: +(performance.now() - T0 - t).toFixed(2) };
      if (name === 'listAndLockHead') Object.assign(entry, { items: result.items.length, locked: result.queueHasLockedRequests });
      trace.push(entry);
      return result;
    };
  }
}
const crawler = new BasicCrawler(
  {
    requestQueue: queue,
    minConcurrency: cfg.concurrency,
    maxConcurrency: cfg.concurrency,
    requestHandlerTimeoutSecs: 60,
    useSessionPool: false,
    async requestHandler({ request }) {
      if (cfg.trace) trace.push({ op: 'handler', t: +(performance.now() - T0).toFixed(2) });
      const url = new URL(request.url);
      const response = await fetch(`${cfg.site}/${url.host}${url.pathname}`);
      await response.arrayBuffer();
      handled++;
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: false }),
);
const go = new Promise((resolve) => process.on('message', (m) => m?.type === 'go' && resolve()));
process.send({ type: 'ready' });
await go;
await crawler.run();
if (cfg.trace) writeFileSync(`${cfg.trace}.${process.pid}.jsonl`, trace.map((e) => JSON.stringify(e)).join('\n'));
process.send({ type: 'done', handled });
process.exit(0);

// One worker process of the polite fleet benchmark (fleet-rate.mjs): a BasicCrawler at a fixed concurrency on a
// polite Redis queue (openRedisRequestQueue, default options plus the run's politeness); its handler fetches the
// bench's site once per request (`<site>/<host>/<path>`), so the site sees each host's requests as a server would.
// It tells the parent { type: 'ready' }, waits for { type: 'go' }, crawls, and sends { type: 'done', handled }.
//
// argv[2] is JSON: { redisUrl, keyPrefix, queueName, site, concurrency, politeness, queueOptions }
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
const crawler = new BasicCrawler(
  {
    requestQueue: queue,
    minConcurrency: cfg.concurrency,
    maxConcurrency: cfg.concurrency,
    requestHandlerTimeoutSecs: 60,
    useSessionPool: false,
    async requestHandler({ request }) {
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
process.send({ type: 'done', handled });
process.exit(0);

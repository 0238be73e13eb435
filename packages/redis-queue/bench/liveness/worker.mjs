// One worker process of the liveness benchmark: a BasicCrawler (no-op handler that sleeps `handlerMs`) on a shared
// Redis queue opened with openRedisRequestQueue and the options given (the defaults unless the run says otherwise).
// It tells the parent its lock owner ({ type: 'ready', clientKey }), waits for { type: 'go' }, then crawls; every
// second it reports the commands it sent to Redis ({ type: 'sent', commands, roundTrips }), scripts counted once.
//
// argv[2] is JSON: { redisUrl, keyPrefix, queueName, handlerMs, concurrency, queueOptions }
import { sent } from '../round-trips.mjs'; // first: patches ioredis before the queue connects
import process from 'node:process';
import { setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { BasicCrawler, Configuration, log } from 'crawlee';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.ERROR);
const queue = await openRedisRequestQueue(cfg.queueName, {
  redis: cfg.redisUrl,
  keyPrefix: cfg.keyPrefix,
  requestHandlerTimeoutSecs: 60,
  ...cfg.queueOptions,
});
const crawler = new BasicCrawler(
  {
    requestQueue: queue,
    minConcurrency: cfg.concurrency,
    maxConcurrency: cfg.concurrency,
    requestHandlerTimeoutSecs: 60,
    useSessionPool: false,
    async requestHandler() {
      if (cfg.handlerMs > 0) await sleep(cfg.handlerMs);
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: false }),
);
const go = new Promise((resolve) => process.on('message', (m) => m?.type === 'go' && resolve()));
process.send({ type: 'ready', clientKey: queue.clientKey, lockSecs: queue.requestLockSecs });
await go;
setInterval(() => process.send({ type: 'sent', at: Date.now(), ...sent }), 1000).unref();
await crawler.run();
process.send({ type: 'finished' });
process.exit(0);

// One crawling process of the cluster bench: a no-op BasicCrawler on a (sharded) queue over a Redis Cluster.
// argv[2] is JSON: { nodes, keyPrefix, queueName, queueOptions, concurrency }. It sends { type: 'ready' } over IPC,
// waits for { type: 'go' }, crawls until the queue is finished and answers { type: 'result', handled, firstAt,
// lastHandledAt } (ms, performance.timeOrigin-based epoch), then exits.
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { BasicCrawler, Configuration, log } from 'crawlee';
import { Cluster } from 'ioredis';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const cfg = JSON.parse(process.argv[2]);
log.setLevel(log.LEVELS.WARNING);
const redis = new Cluster(cfg.nodes, { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: null } });
const queue = await openRedisRequestQueue(cfg.queueName, { redis, keyPrefix: cfg.keyPrefix, requestHandlerTimeoutSecs: 60, ...cfg.queueOptions });
let handled = 0;
let lastHandledAt = 0;
const crawler = new BasicCrawler(
  {
    requestQueue: queue,
    minConcurrency: cfg.concurrency,
    maxConcurrency: cfg.concurrency,
    useSessionPool: false,
    async requestHandler() {
      handled++;
      lastHandledAt = performance.timeOrigin + performance.now();
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: false }),
);
process.send({ type: 'ready' });
await new Promise((resolve) => process.once('message', resolve));
const firstAt = performance.timeOrigin + performance.now();
await crawler.run();
process.send({ type: 'result', handled, firstAt, lastHandledAt });
redis.disconnect();
process.exit(0);

// One worker process of the sharded site crawl: a CheerioCrawler on a sharded queue over a Redis Cluster, crawling
// a loopback site spread over several host names (127.0.0.1 ... 127.0.0.12: one Node server answers them all), so
// `shardBy: 'host'` puts each host's pages in its own shard. Pages link on with enqueueLinks, as a real crawl does.
// Same event file format as ../multiprocess/worker.mjs (R, S <page>, D <page>, F, E), argv[2] the same JSON config
// plus `startUrl`.
import { appendFileSync, existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheerioCrawler, Configuration } from 'crawlee';
import { Cluster } from 'ioredis';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const config = JSON.parse(process.argv[2]);
const record = (line) => appendFileSync(config.resultFile, `${line}\n`);
const fail = (error) => {
  record(`E ${Date.now()} ${String(error?.stack ?? error).replace(/\n/g, ' | ')}`);
  process.exit(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const redis = new Cluster(config.clusterNodes, { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: null } });
const queue = await openRedisRequestQueue(config.queueName, {
  redis,
  keyPrefix: config.keyPrefix,
  requestHandlerTimeoutSecs: config.handlerTimeoutSecs,
  lockSecs: config.lockSecs,
  ...config.queueOptions,
});
const pageOf = (url) => Number(new URL(url).pathname.split('/').pop());
const crawler = new CheerioCrawler(
  {
    requestQueue: queue,
    minConcurrency: config.concurrency,
    maxConcurrency: config.concurrency,
    requestHandlerTimeoutSecs: config.handlerTimeoutSecs,
    maxRequestRetries: 3,
    useSessionPool: false,
    async requestHandler({ request, enqueueLinks }) {
      const page = pageOf(request.loadedUrl ?? request.url);
      record(`S ${page} ${Date.now()}`);
      if (config.handlerMs > 0) await sleep(config.handlerMs);
      await enqueueLinks({ strategy: 'all' });
      record(`D ${page} ${Date.now()}`);
    },
    failedRequestHandler({ request }) {
      record(`X ${pageOf(request.url)} ${Date.now()}`);
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: false }),
);
queue.requestLockSecs = config.lockSecs;
record(`R ${Date.now()} ${process.pid} ${queue.clientKey}`);
while (config.gateFile && !existsSync(config.gateFile)) await sleep(20);
const stats = await crawler.run([config.startUrl]);
record(`F ${Date.now()} ${stats.requestsFinished} ${stats.requestsFailed}`);
process.exit(0);

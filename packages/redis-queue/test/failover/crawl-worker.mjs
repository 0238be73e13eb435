// One crawler process of the failover crawl (run-failover.mjs): a CheerioCrawler on a Redis request queue that lives
// on a local Redis Cluster (an ioredis Cluster connection), crawling the harness's local site by enqueueLinks.
//
// It imports the package by name (the built dist), as users do. What it did goes into a line-per-event file, written
// with appendFileSync so every line survives a SIGKILL:
//   R <ts> <pid>              queue opened; then it waits for `gateFile`
//   S <i> <ts>                handler started for page i
//   A <i> <ts>                enqueueLinks of page i resolved (its adds were acknowledged)
//   H <i> <ts>                markRequestHandled of page i resolved (the handled mark was acknowledged)
//   W <ts> <code> <message>   an operation of the queue threw (e.g. REPLICAS_NOT_ACKNOWLEDGED); Crawlee retries it
//   F <ts> <finished> <failed>  crawler.run() resolved
//   E <ts> <message>          uncaught error (the process then exits with code 1)
import { appendFileSync, existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { Cluster } from 'ioredis';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const config = JSON.parse(process.argv[2]);
const record = (line) => appendFileSync(config.resultFile, `${line}\n`);
const oneLine = (error) => String(error?.stack ?? error).replace(/\n/g, ' | ');
process.on('uncaughtException', (error) => {
  record(`E ${Date.now()} ${oneLine(error)}`);
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  record(`E ${Date.now()} ${oneLine(error)}`);
  process.exit(1);
});
log.setLevel(log.LEVELS.ERROR);

const redis = new Cluster(config.nodes, { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: null } });
redis.on('error', () => undefined);
const queue = await openRedisRequestQueue(config.queueName, {
  redis,
  keyPrefix: config.keyPrefix,
  requestHandlerTimeoutSecs: 10,
  lockSecs: config.lockSecs,
  workerStats: false,
  ...(config.durability ? { durability: config.durability } : {}),
});
const pageOf = (url) => Number(new URL(url).pathname.split('/').pop());

// The acknowledgement of a handled mark is what a failover may take back: record it once the queue resolved it.
const markRequestHandled = queue.markRequestHandled.bind(queue);
queue.markRequestHandled = async (request) => {
  try {
    const result = await markRequestHandled(request);
    record(`H ${pageOf(request.url)} ${Date.now()}`);
    return result;
  } catch (error) {
    record(`W ${Date.now()} ${error?.code ?? 'other'} ${String(error?.message).slice(0, 160).replace(/\n/g, ' ')}`);
    throw error;
  }
};

const crawler = new CheerioCrawler(
  {
    requestQueue: queue,
    minConcurrency: config.concurrency,
    maxConcurrency: config.concurrency,
    requestHandlerTimeoutSecs: 10,
    maxRequestRetries: 10,
    useSessionPool: false,
    async requestHandler({ request, enqueueLinks }) {
      const i = pageOf(request.url);
      record(`S ${i} ${Date.now()}`);
      try {
        await enqueueLinks({ selector: 'a' });
      } catch (error) {
        record(`W ${Date.now()} ${error?.code ?? 'other'} ${String(error?.message).slice(0, 160).replace(/\n/g, ' ')}`);
        throw error;
      }
      record(`A ${i} ${Date.now()}`);
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: false }),
);
// BasicCrawler forces requestLockSecs >= 60 on a queue passed to it; a lock that a failover takes back should
// return within seconds here.
queue.requestLockSecs = config.lockSecs;

record(`R ${Date.now()} ${process.pid}`);
while (!existsSync(config.gateFile)) await sleep(20);
const stats = await crawler.run([`${config.siteUrl}/p/1`]);
record(`F ${Date.now()} ${stats.requestsFinished} ${stats.requestsFailed}`);
process.exit(0);

// One worker process of the sharded start-URL feed tests: a BasicCrawler on a sharded queue (standalone Redis or a
// Cluster) fed only by the feed key, recording each handled URL. With `hangOnAdd` it is the worker that dies between
// the pop and the add: its add script never answers (the feed batch is claimed, nothing reaches the shards), it
// records `H`, and the test SIGKILLs it. Events (argv[2] is the JSON config, the fleet adds resultFile and
// gateFile): `R <ts> <pid> <clientKey>` ready, `D <url>` handled, `H <ts>` hanging in the add, `F <ts> <finished>`,
// `E <ts> <error>`.
import { appendFileSync, existsSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { BasicCrawler, Configuration } from 'crawlee';
import { Cluster, Redis } from 'ioredis';
import { openRedisRequestQueue } from 'crawlee-redis-queue';
import { commandName } from 'crawlee-redis-queue/internal';

const config = JSON.parse(process.argv[2]);
const record = (line) => appendFileSync(config.resultFile, `${line}\n`);
const fail = (error) => {
  record(`E ${Date.now()} ${String(error?.stack ?? error).replace(/\n/g, ' | ')}`);
  process.exit(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const redis = config.clusterNodes
  ? new Cluster(config.clusterNodes, { redisOptions: { maxRetriesPerRequest: null } })
  : new Redis(config.redisUrl, { maxRetriesPerRequest: null });
const queue = await openRedisRequestQueue(config.queueName, {
  redis,
  keyPrefix: config.keyPrefix,
  shards: config.shards,
  startUrlsKey: config.feedKey,
  startUrls: { batchSize: config.batchSize },
  requestHandlerTimeoutSecs: config.handlerTimeoutSecs,
  lockSecs: config.lockSecs,
  workerStats: false,
});
queue.requestLockSecs = config.lockSecs;
if (config.hangOnAdd) {
  // The add script's commands (one per key count on a Cluster) were defined when the queue was opened.
  const base = commandName('addRequests');
  const names = Object.keys(redis).filter((name) => name.startsWith(base));
  if (names.length === 0) throw new Error(`no ${base}* command defined on the connection`);
  for (const name of names) {
    redis[name] = () => {
      record(`H ${Date.now()}`);
      return new Promise(() => {});
    };
  }
}
const crawler = new BasicCrawler(
  {
    requestQueue: queue,
    minConcurrency: config.concurrency,
    maxConcurrency: config.concurrency,
    requestHandlerTimeoutSecs: config.handlerTimeoutSecs,
    async requestHandler({ request }) {
      record(`D ${request.url}`);
      if (config.handlerMs > 0) await sleep(config.handlerMs);
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: false }),
);
record(`R ${Date.now()} ${process.pid} ${queue.clientKey}`);
while (config.gateFile && !existsSync(config.gateFile)) await sleep(20);
const stats = await crawler.run();
record(`F ${Date.now()} ${stats.requestsFinished}`);
process.exit(0);

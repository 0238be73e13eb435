// One crawler process of the multi-process tests: a BasicCrawler on a shared Redis request queue.
//
// It runs the graph of Crawlee's e2e test "request-queue-with-concurrency": the handler of request i adds
// i+1, i+2 and 2i (up to `max`), so the whole queue grows from request 1 and every worker that starts early
// sits idle until others have produced work (the early-finish trap). Every worker calls `crawler.run([request 1])`,
// as a real fleet does; the queue's uniqueKey dedup makes that seed idempotent.
//
// It imports the package by name, i.e. the built dist (turbo's `test` task builds first), so the processes run
// exactly what users install.
//
// What it did goes into a line-per-event result file, written with appendFileSync so that every line that was
// written survives a SIGKILL:
//   R <ts> <pid> <clientKey>          ready (queue opened, crawler built); then it waits for `gateFile`
//   S <i> <ts>                        handler started for request i
//   D <i> <ts>                        handler finished for request i (children added)
//   X <i> <ts>                        request i failed for good (failedRequestHandler)
//   P <i> <ts> ok|lost                a lock prolongation of a long handler (config.heartbeatMs)
//   F <ts> <requestsFinished> <requestsFailed>   crawler.run() resolved
//   E <ts> <message>                  uncaught error (the process then exits with code 1)
import { appendFileSync, existsSync } from 'node:fs';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { BasicCrawler, Configuration } from 'crawlee';
import { Cluster } from 'ioredis';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const config = JSON.parse(process.argv[2]);
const record = (line) => appendFileSync(config.resultFile, `${line}\n`);

process.on('uncaughtException', (error) => {
  record(`E ${Date.now()} ${String(error?.stack ?? error).replace(/\n/g, ' | ')}`);
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  record(`E ${Date.now()} ${String(error?.stack ?? error).replace(/\n/g, ' | ')}`);
  process.exit(1);
});

const requestFor = (i) => ({ url: `http://localhost/r/${i}`, userData: { i } });

// Lock prolongation for a handler longer than the lock: what a user does through the queue client, since Crawlee's
// crawler prolongs a lock only when it fetches the request. refreshRequestLock counts from now (owner-checked), so
// beats do not pile up lock time (FINDINGS.md F2). Each beat is recorded as
//   P <i> <ts> ok|lost
function startHeartbeat(request, i) {
  return setInterval(() => {
    queue.client
      .refreshRequestLock(request.id, { lockSecs: queue.requestLockSecs })
      .then(() => record(`P ${i} ${Date.now()} ok`))
      .catch(() => record(`P ${i} ${Date.now()} lost`));
  }, config.heartbeatMs);
}

const queue = await openRedisRequestQueue(config.queueName, {
  // A Redis Cluster when the test gives seed nodes (the sharded-queue tests), else one server by URL.
  redis: config.clusterNodes ? new Cluster(config.clusterNodes, { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: null } }) : config.redisUrl,
  keyPrefix: config.keyPrefix,
  requestHandlerTimeoutSecs: config.handlerTimeoutSecs,
  ...(config.lockSecs === undefined ? {} : { lockSecs: config.lockSecs }),
  ...config.queueOptions,
});

// Datasets, key-value stores (crawler statistics, session pool) stay per process and in memory.
const crawlerConfig = new Configuration({ persistStorage: false, purgeOnStart: false });

const crawler = new BasicCrawler(
  {
    requestQueue: queue,
    minConcurrency: config.concurrency,
    maxConcurrency: config.concurrency,
    requestHandlerTimeoutSecs: config.handlerTimeoutSecs,
    maxRequestRetries: 3,
    useSessionPool: false,
    async requestHandler({ request, addRequests }) {
      const i = request.userData.i;
      record(`S ${i} ${Date.now()}`);
      // A request that kills the worker holding it (as an OOM or a native crash would): the stall tests.
      if (config.killOn?.includes(i)) process.kill(process.pid, 'SIGKILL');
      const ms = config.slow?.[i] ?? config.handlerMs;
      const beats = config.heartbeatMs > 0 && ms > config.heartbeatMs && !config.noHeartbeat?.includes(i);
      const heartbeat = beats ? startHeartbeat(request, i) : undefined;
      try {
        if (ms > 0) await sleep(ms);
      } finally {
        clearInterval(heartbeat);
      }
      // Duplicates inside one batch (i=1 gives 2, 3, 2) are deliberate: the queue must dedup them.
      const children = [i + 1, i + 2, 2 * i].filter((n) => n <= config.max);
      if (children.length > 0) await addRequests(children.map(requestFor));
      record(`D ${i} ${Date.now()}`);
    },
    failedRequestHandler({ request }) {
      record(`X ${request.userData.i} ${Date.now()}`);
    },
  },
  crawlerConfig,
);

// BasicCrawler forces requestLockSecs >= 60 on a queue passed to it; the tests need short locks, so that a killed
// worker's requests come back within seconds. A core that keeps its own lock time makes this a no-op.
if (config.lockSecs !== undefined) queue.requestLockSecs = config.lockSecs;

record(`R ${Date.now()} ${process.pid} ${queue.clientKey}`);
// The harness releases all workers at once, so that a slow start of one process does not decide who does the work.
while (config.gateFile && !existsSync(config.gateFile)) await sleep(20);
const stats = await crawler.run([requestFor(1)]);
record(`F ${Date.now()} ${stats.requestsFinished} ${stats.requestsFailed}`);
// The queue's connection belongs to the queue; exiting is the plain way for a worker that is done.
process.exit(0);

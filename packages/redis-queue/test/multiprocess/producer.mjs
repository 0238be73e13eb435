// A producer process of the producer-lease test: it adds requests slowly while holding no request lock (a seeding
// script, a sitemap reader), optionally under a producer lease (`queue.holdOpen`). Imports the built dist.
// Events, one line each (appendFileSync, so every written line survives a SIGKILL):
//   L <ts>        lease taken (only with config.leaseSecs)
//   A <i> <ts>    request i added
//   U <ts>        lease released (only with config.leaseSecs); the process then exits
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { openRedisRequestQueue } from 'crawlee-redis-queue';

const config = JSON.parse(process.argv[2]);
const record = (line) => appendFileSync(config.resultFile, `${line}\n`);
const queue = await openRedisRequestQueue(config.queueName, { redis: config.redisUrl, keyPrefix: config.keyPrefix, workerStats: false });
const lease = config.leaseSecs ? await queue.holdOpen({ leaseSecs: config.leaseSecs }) : undefined;
if (lease) record(`L ${Date.now()}`);
for (let n = 0; n < config.count; n++) {
  await sleep(config.gapMs);
  const i = config.first + n;
  await queue.addRequest({ url: `http://localhost/r/${i}`, userData: { i } });
  record(`A ${i} ${Date.now()}`);
}
if (lease) {
  await lease.release();
  record(`U ${Date.now()}`);
}
process.exit(0);

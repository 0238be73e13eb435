// One polite consumer process of the politeness tests, on the queue API of the built package (what users install).
// It locks up to `limit` requests, "fetches" each for `workMs`, marks it handled, and exits when the queue is
// finished. With `killOnFirstLock` it SIGKILLs itself right after its first lock reply, holding those locks.
// Lines of its result file (appendFileSync, so a SIGKILL loses none):
//   R <ts>                         ready (queue opened); then it waits for `gateFile`
//   L <ts> <host> ...              a lock reply with these hosts
//   V <host> <start> <end>         one visit (start after the lock reply, end before the handled mark)
//   F <ts>                         the queue is finished
//   E <ts> <message>               uncaught error
import { appendFileSync, existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { RedisStorageClient } from 'crawlee-redis-queue';

const config = JSON.parse(process.argv[2]);
const record = (line) => appendFileSync(config.resultFile, `${line}\n`);
const now = () => performance.timeOrigin + performance.now();
process.on('unhandledRejection', (error) => {
  record(`E ${Date.now()} ${String(error?.stack ?? error).replace(/\n/g, ' | ')}`);
  process.exit(1);
});

const storage = new RedisStorageClient({ redis: config.redisUrl, keyPrefix: config.keyPrefix, politeness: config.politeness, workerStats: false });
await storage.requestQueues().getOrCreate(config.queueName);
const client = storage.requestQueue(config.queueName, { clientKey: `w${process.pid}` });
record(`R ${Date.now()}`);
while (!existsSync(config.gateFile)) await sleep(10);

for (;;) {
  const head = await client.listAndLockHead({ limit: config.limit, lockSecs: config.lockSecs });
  if (head.items.length === 0) {
    if (!head.queueHasLockedRequests) break;
    await sleep(5);
    continue;
  }
  record(`L ${Date.now()} ${head.items.map((i) => new URL(i.url).host).join(' ')}`);
  if (config.killOnFirstLock) process.kill(process.pid, 'SIGKILL');
  await Promise.all(
    head.items.map(async (item) => {
      const start = now();
      await sleep(config.workMs);
      const end = now();
      record(`V ${new URL(item.url).host} ${start} ${end}`);
      const request = await client.getRequest(item.id);
      await client.updateRequest({ ...request, id: item.id, handledAt: new Date().toISOString() });
    }),
  );
}
record(`F ${Date.now()}`);
await storage.close();

// One worker of the multi-process dataset test: opens the shared Redis dataset through Crawlee's Dataset and pushes
// `count` items ({ worker, n }) as a crawler's handlers do, many pushData calls in flight at once (single items and
// arrays mixed). It imports the package by name (the built dist), as the queue's multi-process workers do.
// argv[2]: JSON { redisUrl, keyPrefix, name, worker, count, gateFile }
import { existsSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Configuration, Dataset } from 'crawlee';
import { RedisStorageClient } from 'crawlee-redis-queue';

const { redisUrl, keyPrefix, name, worker, count, gateFile } = JSON.parse(process.argv[2]);
const storageClient = new RedisStorageClient({ redis: redisUrl, keyPrefix, datasets: 'redis' });
const config = new Configuration({ storageClient, persistStorage: false, purgeOnStart: false });
const dataset = await Dataset.open(name, { config });
process.stdout.write('ready\n');
while (!existsSync(gateFile)) await sleep(10);

const pushes = [];
for (let n = 0; n < count; ) {
  // Every third push is an array of 3, the rest single items.
  const size = n % 3 === 0 ? Math.min(3, count - n) : 1;
  const items = Array.from({ length: size }, (_, k) => ({ worker, n: n + k, url: `https://example.com/${worker}/${n + k}` }));
  pushes.push(dataset.pushData(size === 1 ? items[0] : items));
  n += size;
}
await Promise.all(pushes);
await storageClient.close();
process.stdout.write('done\n');

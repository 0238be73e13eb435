import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { listQueueNames } from '../../src/core/queue-index.js';
import { queueIndexKey } from '../../src/core/keys.js';
import { readFleetSnapshot } from '../../src/metrics/read-fleet-snapshot.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';

// One module reads the queue index for every list of queues: a member no queue can have (written by another
// program) is skipped by each, where `requestQueues().list()` and the metrics failed on it as a whole.

const url = inject('redisUrl');
const keyPrefix = `qindex-${Date.now()}`;
const redis = new Redis(url);
const storage = new RedisStorageClient({ redis: url, keyPrefix, workerStats: false });
afterAll(async () => {
  await storage.close();
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('queue index (core/queue-index.ts)', () => {
  it('lists the queues sorted, skipping members no queue can have, in every reader', async () => {
    await storage.requestQueues().getOrCreate('b-queue');
    await storage.requestQueues().getOrCreate('a-queue');
    await redis.sadd(queueIndexKey(keyPrefix), '', 'bad{tag}');
    expect(await listQueueNames(redis, keyPrefix)).toEqual(['a-queue', 'b-queue']);
    expect((await storage.requestQueues().list()).items.map((q) => q.id)).toEqual(['a-queue', 'b-queue']);
    expect((await readFleetSnapshot(redis, keyPrefix, undefined)).map((q) => q.name)).toEqual(['a-queue', 'b-queue']);
  });

  it('a dropped queue leaves the index', async () => {
    const client = storage.requestQueue('b-queue', { clientKey: 'a' });
    await client.delete();
    expect(await listQueueNames(redis, keyPrefix)).toEqual(['a-queue']);
  });
});

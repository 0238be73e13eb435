import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { QueueMetadataCorruptError } from '../../src/errors/queue-metadata-corrupt-error.js';
import { queueKeys } from '../../src/core/keys.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { req } from '../helpers/world.js';

// Numeric fields of a queue's meta written by someone else (a bad manual HSET): every read and write that uses
// them fails with QueueMetadataCorruptError naming the key and field, never a NaN count or a silent default.

const url = inject('redisUrl');
const keyPrefix = `corrupt-${Date.now()}`;
const redis = new Redis(url);
const storages: RedisStorageClient[] = [];
afterAll(async () => {
  for (const s of storages) await s.close();
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

async function queue(name: string, options: ConstructorParameters<typeof RedisStorageClient>[0] = {}): Promise<RedisRequestQueueClient> {
  const storage = new RedisStorageClient({ redis: url, keyPrefix, workerStats: false, ...options });
  storages.push(storage);
  await storage.requestQueues().getOrCreate(name);
  const client = storage.requestQueue(name, { clientKey: 'a' }) as RedisRequestQueueClient;
  await client.batchAddRequests([req(1), req(2)]);
  return client;
}

async function corruptError(promise: Promise<unknown>): Promise<QueueMetadataCorruptError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QueueMetadataCorruptError);
  return error as QueueMetadataCorruptError;
}

describe('corrupted queue metadata', () => {
  for (const field of ['total', 'pending', 'handled'] as const) {
    it(`get() and admin stats() with ${field} = "abc": typed error naming key and field, and how to repair`, async () => {
      const name = `q-${field}`;
      const client = await queue(name);
      const meta = queueKeys(keyPrefix, name).meta;
      await redis.hset(meta, field, 'abc');
      const error = await corruptError(client.get());
      expect(error).toMatchObject({ code: 'QUEUE_METADATA_CORRUPT', key: meta, field, value: 'abc' });
      expect(error.message).toContain(`HSET '${meta}' ${field} <number>`);
      const admin = new RedisQueueAdmin({ redis: url, keyPrefix, name });
      const fromStats = await corruptError(admin.stats());
      expect(fromStats).toMatchObject({ key: meta, field, value: 'abc' });
      await admin.close();
    });
  }

  it('an add on a queue whose total is text: typed error, nothing added', async () => {
    const client = await queue('q-add');
    const meta = queueKeys(keyPrefix, 'q-add').meta;
    await redis.hset(meta, 'total', 'x1');
    await corruptError(client.batchAddRequests([req(3)]));
    expect(await redis.hget(meta, 'pending')).toBe('2');
  });

  it('politeness settings: a polite lock on a corrupted politeMinDelayMs names the field', async () => {
    const client = await queue('q-polite', { politeness: { minDelaySecs: 1 } });
    const meta = queueKeys(keyPrefix, 'q-polite').meta;
    await redis.hset(meta, 'politeMinDelayMs', 'soon');
    const error = await corruptError(client.listAndLockHead({ limit: 1, lockSecs: 60 }));
    expect(error).toMatchObject({ key: meta, field: 'politeMinDelayMs', value: 'soon' });
  });

  it('shard layout: a corrupted shards count is an error, never read as 1', async () => {
    await queue('q-shards', { shards: 2 });
    const meta = queueKeys(keyPrefix, 'q-shards').meta;
    await redis.hset(meta, 'shards', 'two');
    const admin = new RedisQueueAdmin({ redis: url, keyPrefix, name: 'q-shards' });
    const error = await corruptError(admin.stats());
    expect(error).toMatchObject({ key: meta, field: 'shards', value: 'two' });
    await admin.close();
  });

  it("handled store sizing ('bits'): a corrupted hbBlocks is named by storage()", async () => {
    await queue('q-bits', { handledRequests: 'bits', handledBloom: { expectedRequests: 1000, falsePositiveRate: 0.01 } });
    const meta = queueKeys(keyPrefix, 'q-bits').meta;
    await redis.hset(meta, 'hbBlocks', 'many');
    const admin = new RedisQueueAdmin({ redis: url, keyPrefix, name: 'q-bits' });
    const error = await corruptError(admin.storage());
    expect(error).toMatchObject({ field: 'hbBlocks', value: 'many' });
    await admin.close();
  });
});

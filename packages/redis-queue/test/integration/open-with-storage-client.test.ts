// openRedisRequestQueue with a storageClient: the client's own settings apply, so storage-client options passed
// beside it (politeness, redis, keyPrefix, ...) are refused rather than silently dropped; a fleet would otherwise run
// without the politeness limit it was given.
import { randomUUID } from 'node:crypto';
import { afterAll, expect, inject, it } from 'vitest';
import { InvalidOptionsError, openRedisRequestQueue, RedisStorageClient } from '../../src/index.js';

const keyPrefix = `owsc-${randomUUID().slice(0, 8)}`;
const client = new RedisStorageClient({ redis: inject('redisUrl'), keyPrefix });
afterAll(async () => {
  await client.close();
});

it('refuses politeness (and other storage-client options) given beside a storageClient, naming them', async () => {
  const attempt = openRedisRequestQueue('owsc', { storageClient: client, politeness: { minDelaySecs: 1 }, keyPrefix: 'other' });
  await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
  await expect(attempt).rejects.toThrow(/politeness, keyPrefix cannot be combined with storageClient/);
  const info = await client.requestQueues().list();
  expect(info.items.map((q) => q.name)).not.toContain('owsc');
});

it('opens with a storageClient and its own options (lockSecs, config) as before', async () => {
  const queue = await openRedisRequestQueue('owsc-ok', { storageClient: client, lockSecs: 30 });
  expect(queue.requestLockSecs).toBe(30);
  await queue.drop();
});

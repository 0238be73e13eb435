import { afterAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { queueKeys } from '../../src/core/keys.js';
import { req } from '../helpers/world.js';

const BAD = [Infinity, -Infinity, Number.NaN, 1e300, 30 * 24 * 3600 + 1, 1e-9, 0, -5, '60'];
const keyPrefix = `locksecs-${Date.now()}`;
const redis = new Redis(inject('redisUrl'));
afterAll(async () => {
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('a lock time that would never expire, or rounds to nothing, is rejected before anything is written', () => {
  it.each(BAD.map((v) => [String(v), v]))('lockSecs %s', async (_label, bad) => {
    for (const fastProlong of [false, true]) {
      const storage = new RedisStorageClient({ redis, keyPrefix, fastProlong });
      await storage.requestQueues().getOrCreate('q');
      const client = storage.requestQueue('q', { clientKey: `a-${String(fastProlong)}` }) as RedisRequestQueueClient;
      await client.addRequest(req(`${String(bad)}-${String(fastProlong)}`));
      const locks = queueKeys(keyPrefix, 'q').locks;
      const before = await redis.zrange(locks, '0', '-1', 'WITHSCORES');
      await expect(client.listAndLockHead({ limit: 1, lockSecs: bad as number })).rejects.toBeInstanceOf(InvalidOptionsError);
      expect(await redis.zrange(locks, '0', '-1', 'WITHSCORES')).toEqual(before);
      const [item] = (await client.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
      const locked = await redis.zrange(locks, '0', '-1', 'WITHSCORES');
      await expect(client.prolongRequestLock(item!.id, { lockSecs: bad as number })).rejects.toBeInstanceOf(InvalidOptionsError);
      await expect(client.refreshRequestLock(item!.id, { lockSecs: bad as number })).rejects.toBeInstanceOf(InvalidOptionsError);
      expect(await redis.zrange(locks, '0', '-1', 'WITHSCORES')).toEqual(locked);
      await client.updateRequest({ ...req(`${String(bad)}-${String(fastProlong)}`), id: item!.id, handledAt: new Date().toISOString() });
    }
  });

  it('openRedisRequestQueue rejects such a lockSecs or requestHandlerTimeoutSecs, with what to do', async () => {
    for (const bad of [Infinity, 1e300, Number.NaN]) {
      await expect(openRedisRequestQueue('q2', { redis, keyPrefix, lockSecs: bad })).rejects.toThrow(/refreshRequestLock heartbeats/);
      await expect(openRedisRequestQueue('q2', { redis, keyPrefix, requestHandlerTimeoutSecs: bad })).rejects.toBeInstanceOf(InvalidOptionsError);
    }
    expect(await redis.exists(queueKeys(keyPrefix, 'q2').meta)).toBe(0);
    const queue = await openRedisRequestQueue('q2', { redis, keyPrefix, requestHandlerTimeoutSecs: 100 });
    expect(queue.requestLockSecs).toBe(105);
  });
});

import { freePort, sleep, startRedisServer } from '@crawlee-distributed/test-utils';
import { describe, expect, it } from 'vitest';
import { RedisUnreachableError } from '../../src/errors/redis-unreachable-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';

// Nothing listens on a free port, so ioredis would retry for ever without the first-connect timeout.
describe('first connect of a connection created from a URL', () => {
  it('openRedisRequestQueue rejects with RedisUnreachableError after the default 10 s, naming the URL', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const error: unknown = await openRedisRequestQueue('q', { redis: url }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect((error as RedisUnreachableError).code).toBe('REDIS_UNREACHABLE');
    expect((error as Error).message).toContain(url);
    expect((error as Error).message).toMatch(/redis-server/);
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(25_000); // generous: 2 shared cores
  }, 40_000);

  it('honours connectTimeoutSecs, closes the connection it created, and later operations reject the same way', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const storage = new RedisStorageClient({ redis: url, connectTimeoutSecs: 1 });
    const started = Date.now();
    await expect(storage.requestQueues().getOrCreate('q')).rejects.toBeInstanceOf(RedisUnreachableError);
    expect(Date.now() - started).toBeLessThan(10_000);
    let retries = 0;
    storage.redis.on('reconnecting', () => retries++);
    await sleep(1_500); // ioredis retries every 50-2000 ms; none may follow the rejection
    expect(retries).toBe(0);
    await expect(storage.requestQueues().list()).rejects.toBeInstanceOf(RedisUnreachableError);
    await storage.close();
  }, 30_000);

  it('waits for a Redis that comes up within connectTimeoutSecs', async () => {
    const port = await freePort();
    const storage = new RedisStorageClient({ redis: `redis://127.0.0.1:${port}`, connectTimeoutSecs: 30, keyPrefix: 'late' });
    const opening = storage.requestQueues().getOrCreate('q');
    await sleep(1_000);
    const server = await startRedisServer({ port });
    try {
      expect((await opening).name).toBe('q');
    } finally {
      await storage.close();
      await server.destroy();
    }
  }, 60_000);

  it('rejects a connectTimeoutSecs that is not a positive number', () => {
    expect(() => new RedisStorageClient({ redis: 'redis://127.0.0.1:6379', connectTimeoutSecs: 0 })).toThrow(/connectTimeoutSecs/);
  });
});

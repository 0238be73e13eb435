import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { log } from 'crawlee';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { RedisUnreachableError } from '../../src/errors/redis-unreachable-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { req } from '../helpers/world.js';

// Redis stopped for good (by PID, mid-run): after reconnectTimeoutSecs every waiting operation rejects with a typed
// error naming the address, instead of hanging for ever, and the reconnect attempts print one warning, not a stream.

let server: RedisServerHandle | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.destroy();
  server = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('Redis gone for good', () => {
  it('a connection from a URL: operations in flight and later ones reject with RedisUnreachableError after the budget', async () => {
    server = await startRedisServer();
    const warnings = vi.spyOn(log, 'warning');
    const queue = await openRedisRequestQueue('gone', { redis: server.url, keyPrefix: `gone-${Date.now()}`, reconnectTimeoutSecs: 1.5, workerStats: false });
    await queue.addRequest(req(1));
    const stoppedAt = Date.now();
    await server.stop();

    const { error } = await rejection(queue.client.get());
    const ms = Date.now() - stoppedAt;
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect(error).toMatchObject({ code: 'REDIS_UNREACHABLE', afterConnect: true, url: server.url });
    expect((error as Error).message).toContain(`lost the connection to Redis at ${server.url}`);
    expect((error as Error).message).toMatch(/reconnectTimeoutSecs = 1\.5 s/);
    expect(ms).toBeGreaterThan(1400);
    expect(ms).toBeLessThan(6000);

    // Given up: the connection is closed, the next operation fails at once instead of waiting again.
    const again = await rejection(queue.client.listAndLockHead({ limit: 1, lockSecs: 60 }));
    expect(again.error).toBeInstanceOf(RedisUnreachableError);
    expect(again.ms).toBeLessThan(200);

    const lossLines = warnings.mock.calls.filter(([line]) => String(line).includes('lost the connection to Redis'));
    expect(lossLines).toHaveLength(1);
  });

  it('a caller connection without an error listener: no unhandled-error spam, and a typed error naming its address', async () => {
    server = await startRedisServer();
    const consoleError = vi.spyOn(console, 'error');
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    const admin = new RedisQueueAdmin({ redis, keyPrefix: `gone-${Date.now()}`, name: 'q', reconnectTimeoutSecs: 1 });
    expect(await admin.stats()).toMatchObject({ total: 0 });
    await server.stop();

    const { error } = await rejection(admin.stats());
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect((error as Error).message).toContain(`redis://127.0.0.1:${server.port}`);
    expect(consoleError.mock.calls.filter((args) => String(args[0]).includes('Unhandled error event'))).toEqual([]);
    redis.disconnect();
  });

  it('a restart shorter than the budget is waited through', async () => {
    server = await startRedisServer({ appendOnly: true });
    const queue = await openRedisRequestQueue('back', { redis: server.url, keyPrefix: `gone-${Date.now()}`, reconnectTimeoutSecs: 20, workerStats: false });
    await queue.addRequest(req(1));
    await server.kill();
    const during = queue.client.get();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await server.restart();
    expect(await during).toMatchObject({ totalRequestCount: 1 });
  });
});

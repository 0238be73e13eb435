import { createServer, type Server, type Socket } from 'node:net';
import { freePort } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisBloomDedupStore, RedisSetDedupStore, RedisUnreachableError } from '../src/index.js';
import { testKey } from './helpers.js';

/** Everything written to the console or stderr while `fn` runs (ioredis prints "Unhandled error event" there). */
async function captureOutput<T>(fn: () => Promise<T>): Promise<{ result: unknown; output: string }> {
  const chunks: string[] = [];
  const errorSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void chunks.push(args.join(' ')));
  const warnSpy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void chunks.push(args.join(' ')));
  const write = process.stderr.write.bind(process.stderr);
  const stderrSpy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    chunks.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  });
  try {
    const result = await fn().catch((error: unknown) => error);
    // Give a client that was left reconnecting time to print its next errors.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return { result, output: chunks.join('\n') };
  } finally {
    errorSpy.mockRestore();
    warnSpy.mockRestore();
    stderrSpy.mockRestore();
  }
}

describe('first connection to an unreachable Redis URL', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('RedisBloomDedupStore.open rejects with RedisUnreachableError, prints no unhandled errors, closes its client', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const disconnect = vi.spyOn(Redis.prototype, 'disconnect');
    const { result, output } = await captureOutput(() =>
      RedisBloomDedupStore.open({ redis: url, key: testKey('unreachable'), capacity: 1000, errorRate: 0.01 }),
    );
    expect(result).toBeInstanceOf(RedisUnreachableError);
    const error = result as RedisUnreachableError;
    expect(error.code).toBe('REDIS_UNREACHABLE');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).toMatch(/redis-server/);
    expect(output).not.toMatch(/Unhandled error event/);
    expect(disconnect).toHaveBeenCalled();
  });

  it('RedisSetDedupStore.open rejects the same way, and a later call retries the connection', async () => {
    const port = await freePort();
    const store = new RedisSetDedupStore({ redis: `redis://127.0.0.1:${port}`, key: testKey('unreachable-set') });
    const { result, output } = await captureOutput(() => store.open());
    expect(result).toBeInstanceOf(RedisUnreachableError);
    expect(output).not.toMatch(/Unhandled error event/);
    await expect(store.add(['a'])).rejects.toBeInstanceOf(RedisUnreachableError);
    await store.close();
  });

  describe('a server that accepts but never answers', () => {
    let server: Server | undefined;
    const sockets = new Set<Socket>();
    afterEach(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server?.close(resolve));
    });

    it('rejects after connectTimeoutSecs', async () => {
      const port = await freePort();
      server = createServer((socket) => void sockets.add(socket));
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      const disconnect = vi.spyOn(Redis.prototype, 'disconnect');
      const error = await RedisBloomDedupStore.open({
        redis: `redis://127.0.0.1:${port}`,
        key: testKey('silent'),
        capacity: 1000,
        errorRate: 0.01,
        connectTimeoutSecs: 1,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnreachableError);
      expect((error as Error).message).toMatch(/connectTimeoutSecs = 1/);
      expect(disconnect).toHaveBeenCalled();
    });
  });

  it('rejects a bad connectTimeoutSecs at construction', () => {
    for (const bad of [0, -1, NaN, '10']) {
      expect(
        () => new RedisBloomDedupStore({ redis: 'redis://x', key: 'k', capacity: 10, errorRate: 0.1, connectTimeoutSecs: bad as number }),
      ).toThrow(/connectTimeoutSecs/);
    }
  });
});

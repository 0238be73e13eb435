import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RedisAuthError,
  RedisPermissionError,
  RedisDatabaseError,
  RedisTlsError,
  RedisUnreachableError,
} from '../../src/index.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';

// Each case is an ANSWER from a real server: without the classification it would retry until connectTimeoutSecs
// and end as RedisUnreachableError (or, for a bad DB index, write to database 0).
const PASSWORD = 'pw-s3cret-7f1';
let secured: RedisServerHandle;
let tls: RedisServerHandle;
let otherCa: RedisServerHandle;
beforeAll(async () => {
  [secured, tls, otherCa] = await Promise.all([
    startRedisServer({ password: PASSWORD, aclUsers: [`user noselect on >${PASSWORD} ~* &* +@all -select`] }),
    startRedisServer({ tls: true }),
    startRedisServer({ tls: true }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([secured, tls, otherCa].map((s) => s?.destroy()));
});

async function firstConnect(url: string, redisOptions = {}): Promise<{ error: unknown; elapsed: number }> {
  const storage = new RedisStorageClient({ redis: url, redisOptions, connectTimeoutSecs: 8, keyPrefix: 'sec' });
  const started = Date.now();
  const error = await storage.requestQueues().getOrCreate('q').then(() => undefined, (e: unknown) => e);
  await storage.close();
  return { error, elapsed: Date.now() - started };
}

describe('the first connect classifies what Redis answered', () => {
  it('no password on a requirepass server: RedisAuthError (NOAUTH) at once, not after the timeout', async () => {
    const { error, elapsed } = await firstConnect(secured.url);
    expect(error).toBeInstanceOf(RedisAuthError);
    expect((error as RedisAuthError).code).toBe('REDIS_AUTH');
    expect((error as RedisAuthError).reply).toBe('NOAUTH');
    expect((error as Error).message).toMatch(/redis:\/\/USER:PASSWORD@host:port/);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('a wrong password: RedisAuthError (WRONGPASS), the password masked in the message and the url', async () => {
    const url = `redis://worker:wrong-${PASSWORD}@127.0.0.1:${secured.port}`;
    const { error, elapsed } = await firstConnect(url);
    expect(error).toBeInstanceOf(RedisAuthError);
    expect((error as RedisAuthError).reply).toBe('WRONGPASS');
    expect((error as Error).message).not.toContain(PASSWORD);
    expect((error as RedisAuthError).url).toBe(`redis://worker:***@127.0.0.1:${secured.port}`);
    // ioredis' reply error keeps the AUTH / HELLO arguments (the password) in `command.args`: never in our cause.
    expect(inspect(error, { depth: 20 })).not.toContain(PASSWORD);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('a connection of your own with no or a wrong password: RedisAuthError too, not a script error, nothing written', async () => {
    const admin = new Redis(secured.port, '127.0.0.1', secured.adminOptions);
    try {
      const before = await admin.dbsize();
      for (const [options, reply] of [[{}, 'NOAUTH'], [{ username: 'worker', password: `wrong-${PASSWORD}` }, 'WRONGPASS']] as const) {
        const own = new Redis(secured.port, '127.0.0.1', { ...options, lazyConnect: true, maxRetriesPerRequest: 1 });
        const storage = new RedisStorageClient({ redis: own, keyPrefix: 'sec-own', shards: 2 });
        const error = await storage.requestQueues().getOrCreate('q').then(() => undefined, (e: unknown) => e);
        await storage.close();
        own.disconnect();
        expect(error, String(error)).toBeInstanceOf(RedisAuthError);
        expect((error as RedisAuthError).reply).toBe(reply);
        expect((error as RedisAuthError).url).toBe(`redis://127.0.0.1:${secured.port}`);
        expect(inspect(error, { depth: 20 })).not.toContain(PASSWORD);
      }
      expect(await admin.dbsize()).toBe(before);
    } finally {
      admin.disconnect();
    }
  });

  it('a DB index out of range: RedisDatabaseError, and nothing is written to database 0', async () => {
    const admin = new Redis(secured.port, '127.0.0.1', secured.adminOptions);
    try {
      const before = await admin.dbsize();
      const { error } = await firstConnect(`redis://:${PASSWORD}@127.0.0.1:${secured.port}/99`);
      expect(error).toBeInstanceOf(RedisDatabaseError);
      expect((error as Error).message).toMatch(/\/0 to \/15/);
      expect((error as Error).message).not.toContain(PASSWORD);
      expect(await admin.dbsize()).toBe(before);
    } finally {
      admin.disconnect();
    }
  });

  it('NOPERM at connect (a user that may not SELECT the URL database): RedisPermissionError naming the command', async () => {
    const { error, elapsed } = await firstConnect(`redis://noselect:${PASSWORD}@127.0.0.1:${secured.port}/1`);
    expect(error).toBeInstanceOf(RedisPermissionError);
    expect((error as RedisPermissionError).code).toBe('REDIS_PERMISSION');
    expect((error as RedisPermissionError).command).toBe('select');
    expect((error as Error).message).toMatch(/\+select/);
    expect((error as Error).message).not.toContain(PASSWORD);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('the right password works', async () => {
    const { error } = await firstConnect(`redis://:${PASSWORD}@127.0.0.1:${secured.port}`);
    expect(error).toBeUndefined();
  });
});

describe('TLS', () => {
  it('rediss:// with the test CA works', async () => {
    const { error } = await firstConnect(tls.url, { tls: { ca: tls.tls!.ca } });
    expect(error).toBeUndefined();
  });

  it('a self-signed CA the client does not trust: RedisTlsError at once', async () => {
    const { error, elapsed } = await firstConnect(tls.url);
    expect(error).toBeInstanceOf(RedisTlsError);
    expect((error as RedisTlsError).code).toBe('REDIS_TLS');
    expect((error as Error).message).toMatch(/SELF_SIGNED_CERT_IN_CHAIN/);
    expect((error as Error).message).toMatch(/tls: \{ ca:/);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('a certificate signed by another CA: RedisTlsError', async () => {
    const { error } = await firstConnect(tls.url, { tls: { ca: otherCa.tls!.ca } });
    expect(error).toBeInstanceOf(RedisTlsError);
  });

  it('rediss:// on a plain port: RedisTlsError (TCP answers, no handshake), not RedisUnreachableError', async () => {
    const { error } = await firstConnect(`rediss://:${PASSWORD}@127.0.0.1:${secured.port}`);
    expect(error).toBeInstanceOf(RedisTlsError);
    expect((error as Error).message).toMatch(/use redis:\/\//);
    expect((error as Error).message).not.toContain(PASSWORD);
  }, 30_000);

  it('redis:// on a TLS-only port: RedisTlsError saying to use rediss://', async () => {
    const { error, elapsed } = await firstConnect(`redis://127.0.0.1:${tls.port}`);
    expect(error).toBeInstanceOf(RedisTlsError);
    expect((error as Error).message).toMatch(/use rediss:\/\//);
    expect(elapsed).toBeLessThan(6_000);
  }, 30_000);

  it('a refused connection is still RedisUnreachableError', async () => {
    const server = await startRedisServer();
    const url = server.url;
    await server.destroy();
    const storage = new RedisStorageClient({ redis: url, connectTimeoutSecs: 1 });
    await expect(storage.requestQueues().getOrCreate('q')).rejects.toBeInstanceOf(RedisUnreachableError);
    await storage.close();
  });
});

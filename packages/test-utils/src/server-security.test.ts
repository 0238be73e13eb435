import { Redis, type RedisOptions } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerHandle } from './redis-server.js';

const handles: RedisServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

async function attempt(url: string, options: RedisOptions = {}): Promise<string> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000, ...options });
  let first: string | undefined;
  client.on('error', (error: Error) => (first ??= error.message));
  try {
    await client.connect();
    return await client.ping();
  } catch (error) {
    return first ?? (error as Error).message;
  } finally {
    client.disconnect();
  }
}

describe('startRedisServer security options', () => {
  it('password: requirepass on the default user; adminOptions carry it', async () => {
    const server = await startRedisServer({ password: 'pw1' });
    handles.push(server);
    expect(await attempt(server.url)).toMatch(/^NOAUTH/);
    expect(await attempt(server.url, server.adminOptions)).toBe('PONG');
  });

  it('aclUsers: users of an ACL file, limited to their key patterns', async () => {
    const server = await startRedisServer({ password: 'adm', aclUsers: ['user worker on >wpw ~{crawlee:rq:* +@all -@dangerous'] });
    handles.push(server);
    const worker = new Redis(`redis://worker:wpw@127.0.0.1:${server.port}`, { enableReadyCheck: false });
    try {
      await worker.set('{crawlee:rq:q}:meta', '1');
      await expect(worker.set('other', '1')).rejects.toThrow(/NOPERM/);
      await expect(worker.call('FLUSHALL')).rejects.toThrow(/NOPERM/);
    } finally {
      worker.disconnect();
    }
    expect(await attempt(`redis://:adm@127.0.0.1:${server.port}`)).toBe('PONG');
  });

  it('tls: serves rediss:// only, with a CA made by openssl for this server', async () => {
    const server = await startRedisServer({ tls: true });
    handles.push(server);
    expect(server.url).toBe(`rediss://127.0.0.1:${server.port}`);
    expect(server.tls!.ca).toMatch(/BEGIN CERTIFICATE/);
    expect(await attempt(server.url, { tls: { ca: server.tls!.ca } })).toBe('PONG');
    expect(await attempt(server.url)).toMatch(/self-signed/);
    // A restart keeps the same certificates.
    await server.restart();
    expect(await attempt(server.url, { tls: { ca: server.tls!.ca } })).toBe('PONG');
  });
});

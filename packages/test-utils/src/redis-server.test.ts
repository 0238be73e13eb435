import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from './process-tools.js';
import { startRedisServer, type RedisServerHandle } from './redis-server.js';
import { RedisUnavailableError } from './errors.js';

const handles: RedisServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

describe('startRedisServer', () => {
  it('starts a real server on a free loopback port and stops it by PID', async () => {
    const server = await startRedisServer();
    handles.push(server);
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(server.port).not.toBe(6379);
    const client = new Redis(server.url);
    const info = await client.info('server');
    expect(info).toContain(`process_id:${server.pid}`);
    expect(info).toContain(`tcp_port:${server.port}`);
    client.disconnect();
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);
  });

  it('keeps data across a restart when the AOF is on', async () => {
    const server = await startRedisServer({ appendOnly: true });
    handles.push(server);
    const client = new Redis(server.url, { maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    await client.set('kept', 'yes');
    const firstPid = server.pid;
    await server.restart();
    expect(server.pid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);
    expect(await client.get('kept')).toBe('yes');
    client.disconnect();
  });

  it('a SIGKILLed server loses nothing that was fsynced (appendfsync always)', async () => {
    const server = await startRedisServer({ appendOnly: true });
    handles.push(server);
    const client = new Redis(server.url, { maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    await client.rpush('list', 'a', 'b', 'c');
    await server.kill();
    expect(isAlive(server.pid)).toBe(false);
    await server.restart();
    expect(await client.lrange('list', 0, -1)).toEqual(['a', 'b', 'c']);
    client.disconnect();
  });

  it('destroy() removes the data directory it created', async () => {
    const server = await startRedisServer();
    expect(existsSync(server.dir)).toBe(true);
    await server.destroy();
    expect(existsSync(server.dir)).toBe(false);
  });

  it('fails with install instructions when the binary is missing', async () => {
    const previous = process.env.REDIS_SERVER_BIN;
    process.env.REDIS_SERVER_BIN = '/nonexistent/redis-server';
    try {
      const error = await startRedisServer().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnavailableError);
      expect((error as Error).message).toMatch(/apt-get install -y redis-server/);
    } finally {
      if (previous === undefined) delete process.env.REDIS_SERVER_BIN;
      else process.env.REDIS_SERVER_BIN = previous;
    }
  });
});

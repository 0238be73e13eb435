import { afterEach, describe, expect, it } from 'vitest';
import { RedisUnavailableError } from './errors.js';
import { freePort } from './free-port.js';
import { pingRedis, redisUrlForTests, stopTestRedis } from './redis-url.js';
import { startRedisServer } from './redis-server.js';

const saved = { url: process.env.REDIS_URL, bin: process.env.REDIS_SERVER_BIN };
afterEach(async () => {
  await stopTestRedis();
  for (const [name, value] of [['REDIS_URL', saved.url], ['REDIS_SERVER_BIN', saved.bin]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('redisUrlForTests', () => {
  it('uses REDIS_URL when it answers', async () => {
    const server = await startRedisServer();
    try {
      process.env.REDIS_URL = server.url;
      expect(await redisUrlForTests()).toBe(server.url);
    } finally {
      await server.destroy();
    }
  });

  it('fails loudly, never skips, when REDIS_URL does not answer', async () => {
    process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
    await expect(redisUrlForTests()).rejects.toThrow(RedisUnavailableError);
  });

  it('uses 127.0.0.1:6379 when it answers, else starts a server', async () => {
    delete process.env.REDIS_URL;
    const url = await redisUrlForTests();
    expect(await pingRedis(url)).toBe(true);
    if (await pingRedis('redis://127.0.0.1:6379')) expect(url).toBe('redis://127.0.0.1:6379');
    else expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
  });

  it('says how to install Redis when none answers and none can be started', async () => {
    process.env.REDIS_URL = '';
    delete process.env.REDIS_URL;
    process.env.REDIS_SERVER_BIN = '/nonexistent/redis-server';
    // Only meaningful when 6379 is down; otherwise prove the error path through REDIS_URL.
    if (await pingRedis('redis://127.0.0.1:6379')) {
      process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
    }
    const error = await redisUrlForTests().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as Error).message).toMatch(/apt-get install -y redis-server/);
  });
});

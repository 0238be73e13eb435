import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { runCliIn } from './cli-io.js';

// `seed` creates queues: it takes only names the library opens, so no worker is left unable to open what was seeded.

const url = inject('redisUrl');
const keyPrefix = `seedname-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const redis = new Redis(url);

afterAll(async () => {
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('seed <queue>', () => {
  const refused: [string, RegExp][] = [
    ['default', /cannot be named 'default'/],
    [' crawl', /must not start or end with whitespace/],
    ['crawl ', /must not start or end with whitespace/],
    ['cr\nawl', /must not contain control characters/],
    ['cr\tawl', /must not contain control characters/],
    ['cr\u0007awl', /must not contain control characters/],
  ];
  for (const [name, message] of refused) {
    it(`refuses ${JSON.stringify(name)} as the library does: exit 2, nothing written`, async () => {
      const run = await runCliIn(['seed', name, '-', '--redis', url, '--key-prefix', keyPrefix], 'http://a.example/1\n');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(await redis.keys(`*${keyPrefix}*`)).toEqual([]);
      await expect(openRedisRequestQueue(name, { redis: url, keyPrefix })).rejects.toThrow(InvalidOptionsError);
    });
  }

  it('still seeds a plain name', async () => {
    const run = await runCliIn(['seed', 'crawl', '-', '--redis', url, '--key-prefix', keyPrefix], 'http://a.example/1\n');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

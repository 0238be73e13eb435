import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue, RedisQueueAdmin } from 'crawlee-redis-queue';
import { QueueFinishedError } from '../src/errors/queue-finished-error.js';

const redisUrl = inject('redisUrl');
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('the drop command printed for a finished queue', () => {
  it('names the Redis the run used (masked) and the key prefix, never $REDIS_URL', () => {
    const message = new QueueFinishedError('qafr-pw', 'redis://:***@127.0.0.1:6391', 3, 'shop').message;
    expect(message).toContain(
      "npx --no crawlee-redis drop qafr-pw --redis 'redis://:***@127.0.0.1:6391' --key-prefix shop --yes",
    );
    expect(message).toContain('put the password back in place of ***');
    expect(message).not.toContain('REDIS_URL }');
    expect(message).not.toContain('process.env.REDIS_URL');
  });

  it('works as printed from the repository root, on that Redis only', async () => {
    const name = `drophint-${randomUUID().slice(0, 8)}`;
    const keyPrefix = `dh${randomUUID().slice(0, 6)}`;
    const queue = await openRedisRequestQueue(name, { redis: redisUrl, keyPrefix, workerStats: false });
    await queue.addRequest({ url: 'http://127.0.0.1:9/a' });
    const message = new QueueFinishedError(name, redisUrl, 1, keyPrefix).message;
    const command = /from the repository root: (npx --no crawlee-redis drop .*? --yes)/.exec(message)?.[1];
    expect(command).toBeDefined();
    execFileSync('sh', ['-c', command!], { cwd: repoRoot, env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1' }, stdio: 'pipe' });
    const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix, name });
    try {
      expect((await admin.stats()).total).toBe(0);
    } finally {
      await admin.close();
    }
  });
});

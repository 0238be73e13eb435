import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { requestIdOf } from '../../src/core/request-codec.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { req } from '../helpers/world.js';
import { runCliIn } from './cli-io.js';

// `dead-letters --requeue` puts back only what a worker can read; the rest stays dead, named with its reason.

const url = inject('redisUrl');
const keyPrefix = `dlrequeue-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const redis = new Redis(url);
const admin = new RedisQueueAdmin({ redis, keyPrefix, name: 'q' });
const cli = (args: string[]) => runCliIn([...args, '--redis', url, '--key-prefix', keyPrefix]);
const record = (uniqueKey: string, link: string) => JSON.stringify({ url: link, uniqueKey, method: 'GET', userData: {}, retryCount: 0 });

beforeAll(async () => {
  const storage = new RedisStorageClient({ redis: url, keyPrefix, workerStats: false });
  await storage.requestQueues().getOrCreate('q');
  await storage.requestQueue('q').batchAddRequests([req(1)]);
  await storage.close();
});
afterAll(async () => {
  const keys = await redis.keys(`*${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('dead-letters --requeue', () => {
  it('requeues the readable letters and leaves the unreadable ones dead, with their reasons', async () => {
    const good = requestIdOf('http://a.example/good');
    const js = requestIdOf('js');
    await redis.hset(admin.keys.dead, good, record('http://a.example/good', 'http://a.example/good'));
    await redis.hset(admin.keys.dead, 'junk-json', '{"url": truncated');
    await redis.hset(admin.keys.dead, 'empty-1', '');
    await redis.hset(admin.keys.dead, js, record('js', 'javascript:alert(1)'));
    const before = (await admin.stats()).total;

    const run = await cli(['dead-letters', 'q', '--requeue', '--yes']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^requeued 1, skipped 3 \(unreadable: .*\)\n$/);
    for (const id of ['junk-json', 'empty-1', js]) expect(run.stdout).toContain(`${id} (`);

    expect((await admin.stats()).total).toBe(before + 1);
    expect((await redis.hkeys(admin.keys.dead)).sort()).toEqual(['empty-1', js, 'junk-json'].sort());
  });

  it('names an asked-for id with no dead letter, and requeues nothing for it', async () => {
    const run = await cli(['dead-letters', 'q', '--requeue', '--yes', '--id', 'no-such-id', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ requeued: 0, skipped: 1, unreadable: [{ id: 'no-such-id', reason: 'no such dead letter' }] });
  });

  it('--delete with an id that has no dead letter: exit 1 naming it, nothing deleted (not even the ids that exist)', async () => {
    const before = (await redis.hkeys(admin.keys.dead)).sort();
    expect(before.length).toBeGreaterThan(0);
    const run = await cli(['dead-letters', 'q', '--delete', '--yes', '--id', before[0]!, 'no-such-id']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no dead letter with id no-such-id');
    expect(run.stderr).toContain('nothing was deleted');
    expect((await redis.hkeys(admin.keys.dead)).sort()).toEqual(before);
  });
});

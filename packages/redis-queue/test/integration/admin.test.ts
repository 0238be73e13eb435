import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import { queueKeys } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, names, req, type QueueWorld } from '../helpers/world.js';

let backend: TestBackend;
let world: QueueWorld;
beforeAll(async () => {
  backend = await createBackend('ioredis6-resp3', inject('redisUrl'));
});
afterAll(async () => {
  await backend.stop();
});
afterEach(async () => {
  await world.cleanup();
});

describe('RedisQueueAdmin', () => {
  it('stats: total, pending, locked (unexpired only), handled, deadLetters', async () => {
    world = createWorld(backend);
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2), req(3), req(4)]);
    const [one] = (await c.listAndLockHead({ limit: 2, lockSecs: 30 })).items;
    await c.updateRequest({ ...req(1), id: one!.id, handledAt: new Date().toISOString() });
    await world.redis.hset(queueKeys(world.keyPrefix, world.name).dead, 'x', 'junk');
    const admin = world.admin();
    expect(await admin.stats()).toEqual({ total: 4, pending: 3, locked: 1, handled: 1, deadLetters: 1 });
  });

  it('purge empties the queue but keeps it; drop deletes it; neither is reachable from purgeOnStart', async () => {
    world = createWorld(backend);
    const c = await world.client('a');
    await c.batchAddRequests([req(1), req(2)]);
    await c.listAndLockHead({ limit: 1, lockSecs: 30 });
    const admin = world.admin();
    expect(await admin.purge()).toBe(2);
    expect(await admin.stats()).toEqual({ total: 0, pending: 0, locked: 0, handled: 0, deadLetters: 0 });
    expect(await c.get()).toMatchObject({ id: world.name, totalRequestCount: 0 });
    await c.addRequest(req(1));
    expect(names((await c.listAndLockHead({ limit: 5, lockSecs: 30 })).items)).toEqual(['1']);
    await admin.drop();
    expect(await c.get()).toBeUndefined();
    expect(await world.redis.exists(...queueKeys(world.keyPrefix, world.name).all)).toBe(0);
  });

  it('requeueDeadLetters puts raw entries back, or repaired ones; feed items go back to the feed', async () => {
    world = createWorld(backend);
    const c = await world.client('a');
    const keys = queueKeys(world.keyPrefix, world.name);
    await world.redis.hset(keys.data, 'raw1', '{"v":99}');
    await world.redis.rpush(keys.fifo, 'raw1');
    await world.redis.hset(keys.data, 'raw2', '{"url":"https://example.com/trunc');
    await world.redis.rpush(keys.fifo, 'raw2');
    await world.redis.hincrby(keys.meta, 'total', 2); // as if added through the queue, then corrupted
    await world.redis.hincrby(keys.meta, 'pending', 2);
    expect((await c.listAndLockHead({ limit: 5, lockSecs: 30 })).items).toEqual([]);
    const admin = world.admin();
    expect((await admin.listDeadLetters()).map((l) => l.id).sort()).toEqual(['raw1', 'raw2']);

    // raw2 repaired into a real request; raw1 left dead by the repair function.
    const result = await admin.requeueDeadLetters({
      repair: (letter) => (letter.id === 'raw2' ? { url: 'https://example.com/trunc', uniqueKey: 'https://example.com/trunc' } : undefined),
    });
    expect(result).toEqual({ requeued: 1, skipped: 1 });
    expect(names((await c.listAndLockHead({ limit: 5, lockSecs: 30 })).items)).toEqual(['trunc']);
    // raw1 back unchanged: it is still unreadable, so it lands in the dead letters again, and no worker crashes.
    expect(await admin.requeueDeadLetters({ ids: ['raw1'] })).toEqual({ requeued: 1, skipped: 0 });
    expect((await c.listAndLockHead({ limit: 5, lockSecs: 30 })).items).toEqual([]);
    expect((await admin.listDeadLetters()).map((l) => l.id)).toEqual(['raw1']);
    expect(await admin.stats()).toMatchObject({ total: 1, pending: 1, deadLetters: 1 });

    const feedKey = `${world.keyPrefix}-feed`;
    const feedAdmin = new RedisQueueAdmin({ redis: world.redis, keyPrefix: world.keyPrefix, name: world.name, startUrlsKey: feedKey });
    const feeder = await world.client('f', { startUrls: { key: feedKey } });
    await world.redis.rpush(feedKey, 'not a url');
    await feeder.listAndLockHead({ limit: 5, lockSecs: 30 });
    const feedLetter = (await feedAdmin.listDeadLetters()).find((l) => l.source === 'feed')!;
    expect(feedLetter.reason).toMatch(/not JSON and not an http/);
    await feedAdmin.requeueDeadLetters({ ids: [feedLetter.id], repair: () => ({ url: 'https://example.com/fixed', uniqueKey: 'https://example.com/fixed' }) });
    expect(JSON.parse((await world.redis.lrange(feedKey, 0, -1))[0]!)).toMatchObject({ url: 'https://example.com/fixed' });
    await world.redis.del(feedKey);
  });

  it('rejects names and prefixes that would break the hash tag', () => {
    world = createWorld(backend);
    expect(() => new RedisQueueAdmin({ redis: world.redis, name: 'a{b}' })).toThrow(InvalidOptionsError);
    expect(() => new RedisQueueAdmin({ redis: world.redis, name: 'ok', keyPrefix: '' })).toThrow(InvalidOptionsError);
  });
});

// Entries a third party wrote straight into `data` and the FIFO list without touching `meta` (so they were never
// counted) are dead-lettered like any broken entry, but must not drive the counters below the truth: the real
// requests' pending/handled/total stay exact, nothing is negative, handled never exceeds total.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { queueKeys } from '../../src/core/keys.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, req, type QueueWorld } from '../helpers/world.js';

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

describe('dead letters of entries that were never counted', () => {
  it('bad ids written into data and the FIFO list without meta: dead-lettered, counters stay exact and never negative', async () => {
    world = createWorld(backend, `uncounted-${Date.now()}`);
    const client = await world.client('w1');
    await client.batchAddRequests([req(1), req(2), req(3)]);
    const keys = queueKeys(world.keyPrefix, world.name);
    // Third-party writes, meta untouched: unreadable data (dead-letter-request.lua), a FIFO entry without data
    // (list-and-lock-head.lua's 'request data missing'), and a data-only id that is in no order set.
    await world.redis.hset(keys.data, 'bad-json', '{"url":', 'bad-shape', '{"nope":1}');
    for (const id of ['bad-json', 'bad-shape', 'no-data']) {
      await world.redis.lpush(keys.fifo, id);
    }
    const handled: string[] = [];
    for (;;) {
      const head = await client.listAndLockHead({ limit: 10, lockSecs: 60 });
      if (head.items.length === 0) break;
      for (const item of head.items) {
        handled.push(item.url);
        await client.updateRequest({ url: item.url, uniqueKey: item.uniqueKey, id: item.id, handledAt: new Date().toISOString() });
      }
    }
    expect(handled.sort()).toEqual([req(1).url, req(2).url, req(3).url]);
    const stats = await world.admin().stats();
    expect(stats).toMatchObject({ total: 3, pending: 0, handled: 3, deadLetters: 3 });
    expect(await world.redis.hmget(keys.meta, 'total', 'pending', 'handled')).toEqual(['3', '0', '3']);
  });

  it('admin.stats() never reports a negative count or handled above total, even for hand-edited meta', async () => {
    world = createWorld(backend, `clamp-${Date.now()}`);
    const client = await world.client('w1');
    await client.batchAddRequests([req(1)]);
    const keys = queueKeys(world.keyPrefix, world.name);
    await world.redis.hset(keys.meta, 'pending', -2, 'handled', 5, 'total', 3);
    const stats = await world.admin().stats();
    expect(stats.pending).toBe(0);
    expect(stats.handled).toBeLessThanOrEqual(stats.total);
    expect(Math.min(stats.total, stats.pending, stats.handled, stats.locked)).toBeGreaterThanOrEqual(0);
  });
});

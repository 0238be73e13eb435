import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EnqueueFilterPlan, EnqueueFilterSource } from '../../src/internal.js';
import { DedupStoreRequiredError } from '../../src/errors/dedup-store-required-error.js';
import type { RedisConnection } from '../../src/core/connection.js';
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

const FAILED_STATE = 5; // Crawlee's RequestState.ERROR_HANDLER

/** An exact set store in the queue's hash tag (the seam's 'member' op). */
function setStore(redis: RedisConnection, tag: string): EnqueueFilterSource & { setKey: string } {
  const setKey = `${tag}:test-seen`;
  const counter = `${tag}:test-dedup-stats`;
  return {
    redis,
    setKey,
    planEnqueueFilter: (keys: string[]): EnqueueFilterPlan => ({
      keys: [setKey, counter],
      ops: keys.map((member) => ({ type: 'member', key: 0, member })),
      counter: { key: 1, newField: 'itemsAdded', filteredField: 'filtered' },
    }),
    enqueueFilterKeys: () => [setKey, counter],
  };
}

describe("handledRequests 'store': the dedup store is the queue's record of handled requests", () => {
  it('marks handled once (a repeated mark moves no counter), re-adds are filtered by the store, failed requests requeue', async () => {
    world = createWorld(backend, 'queue', { handledRequests: 'store' });
    const c = await world.client('w1');
    const store = setStore(c.redis, c.keys.tag);
    c.attachEnqueueFilter(store);
    await c.batchAddRequests([req(1), req(2)]);
    const { items } = await c.listAndLockHead({ limit: 2, lockSecs: 30 });
    const handledAt = new Date().toISOString();
    await c.updateRequest({ ...req(1), id: items[0]!.id, handledAt });
    await c.updateRequest({ ...req(1), id: items[0]!.id, handledAt }); // retried call
    await c.updateRequest({ ...req(2), id: items[1]!.id, handledAt, userData: { __crawlee: { state: FAILED_STATE } } });
    expect(await c.get()).toMatchObject({ totalRequestCount: 2, handledRequestCount: 2, pendingRequestCount: 0 });
    // Nothing of the queue's own per handled request: no data, no done record, no index bucket.
    expect(await world.redis.hlen(c.keys.data)).toBe(0);
    expect(await world.redis.hlen(c.keys.done)).toBe(0);
    expect(await world.redis.exists(`${c.keys.ixPrefix}0`)).toBe(0);
    const again = await c.batchAddRequests([req(1), req(3)]);
    expect(again.processedRequests.map((p) => p.wasAlreadyPresent)).toEqual([true, false]);
    expect(await world.redis.hget(`${c.keys.tag}:test-dedup-stats`, 'filtered')).toBe('1');
    // The failed request (kept as handled) goes back to pending.
    expect(await world.admin().requeueFailed()).toMatchObject({ requeued: 1 });
    expect(await c.get()).toMatchObject({ totalRequestCount: 3, handledRequestCount: 1, pendingRequestCount: 2 });
  });

  it('an add, a feed drain or a takeover without the store is refused before anything is written', async () => {
    const feedKey = `store-mode-feed-${randomUUID()}`;
    world = createWorld(backend, 'queue', { handledRequests: 'store', startUrls: { key: feedKey } });
    const c = await world.client('w1');
    await expect(c.batchAddRequests([req(1)])).rejects.toBeInstanceOf(DedupStoreRequiredError);
    await world.redis.rpush(feedKey, req(2).url);
    await expect(c.listAndLockHead({ limit: 1, lockSecs: 30 })).rejects.toBeInstanceOf(DedupStoreRequiredError);
    expect(await world.redis.llen(feedKey)).toBe(1);
    await world.redis.zadd(`${feedKey}:scrapy`, 0, 'x');
    await expect(world.admin().takeOverScrapyRequests({ key: `${feedKey}:scrapy` })).rejects.toBeInstanceOf(DedupStoreRequiredError);
    expect(await c.get()).toMatchObject({ totalRequestCount: 0 });
    await world.redis.del(feedKey, `${feedKey}:scrapy`);
  });
});

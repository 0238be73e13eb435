// maxStalls on one real Redis with a movable Redis clock: which lock expiries count as stalls, when a request is
// dead-lettered, the counters, one suspect per listAndLockHead, and requeue resetting the count.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/queue/request-codec.js';
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
  await world?.cleanup();
});

const LOCK_SECS = 10;
/** Past a lock that was prolonged once from its expiry (Crawlee's rule: twice the lock time). */
const PAST_PROLONGED = 2 * LOCK_SECS * 1000 + 1;

describe('maxStalls', () => {
  it('a started request whose lock expires maxStalls times is dead-lettered with the count; unstarted locks never count', async () => {
    world = createWorld(backend, 'stalls-a');
    const client = await world.client('w', { maxStalls: 2 });
    await client.batchAddRequests([req(1), req(2)]);
    const stalls = world.admin().keys.stalls;
    const id1 = requestIdOf('https://example.com/1');

    // Locked but never started (never prolonged): expiries do not count, however often.
    for (let round = 0; round < 3; round++) {
      expect(names((await client.listAndLockHead({ limit: 2, lockSecs: LOCK_SECS })).items)).toEqual(['1', '2']);
      world.advance(LOCK_SECS * 1000 + 1);
    }
    expect(await world.redis.hlen(stalls)).toBe(0);

    // Started (prolonged, as Crawlee does when it takes it from its buffer) and then the worker died: one stall.
    for (let round = 1; round <= 2; round++) {
      const { items } = await client.listAndLockHead({ limit: 1, lockSecs: LOCK_SECS });
      expect(names(items)).toEqual(['1']);
      await client.prolongRequestLock(id1, { lockSecs: LOCK_SECS });
      world.advance(PAST_PROLONGED);
    }
    const { items } = await client.listAndLockHead({ limit: 2, lockSecs: LOCK_SECS });
    expect(names(items)).toEqual(['2']);
    const letters = await world.admin().listDeadLetters();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ id: id1, source: 'queue', stalls: 2 });
    expect(letters[0]!.reason).toMatch(/lock expired 2 times.*maxStalls is 2/);
    expect(JSON.parse(letters[0]!.raw.toString())).toMatchObject({ url: 'https://example.com/1' });
    expect(await world.redis.hexists(stalls, id1)).toBe(0);
    expect(await world.admin().stats()).toEqual({ total: 1, pending: 1, locked: 1, handled: 0, deadLetters: 1 });

    // Requeued: back at the tail with no stall counted; one more stall does not dead-letter it again.
    expect(await world.admin().requeueDeadLetters()).toEqual({ requeued: 1, skipped: 0 });
    world.advance(LOCK_SECS * 1000 + 1);
    expect(names((await client.listAndLockHead({ limit: 2, lockSecs: LOCK_SECS })).items)).toEqual(['2', '1']);
    await client.prolongRequestLock(id1, { lockSecs: LOCK_SECS });
    world.advance(PAST_PROLONGED);
    expect(names((await client.listAndLockHead({ limit: 2, lockSecs: LOCK_SECS })).items)).toEqual(['2', '1']);
    expect(await world.redis.hget(stalls, id1)).toBe('1');
    expect(await world.admin().stats()).toMatchObject({ total: 2, pending: 2, deadLetters: 0 });
  });

  it('maxStalls 0 counts nothing and never dead-letters', async () => {
    world = createWorld(backend, 'stalls-b');
    const client = await world.client('w', { maxStalls: 0 });
    await client.batchAddRequests([req(1)]);
    for (let round = 0; round < 5; round++) {
      await client.listAndLockHead({ limit: 1, lockSecs: LOCK_SECS });
      await client.prolongRequestLock(requestIdOf('https://example.com/1'), { lockSecs: LOCK_SECS });
      world.advance(PAST_PROLONGED);
    }
    expect(names((await client.listAndLockHead({ limit: 1, lockSecs: LOCK_SECS })).items)).toEqual(['1']);
    expect(await world.redis.hlen(world.admin().keys.stalls)).toBe(0);
    expect(await world.admin().listDeadLetters()).toEqual([]);
  });

  it('one listAndLockHead locks at most one request with a stall counted (neighbours of a killer are split up)', async () => {
    world = createWorld(backend, 'stalls-c');
    const client = await world.client('w', { maxStalls: 3 });
    await client.batchAddRequests([req(1), req(2), req(3), req(4)]);
    // A worker started 1, 2 and 3 together and died: each has one stall now.
    await client.listAndLockHead({ limit: 4, lockSecs: LOCK_SECS });
    for (const n of [1, 2, 3]) await client.prolongRequestLock(requestIdOf(`https://example.com/${n}`), { lockSecs: LOCK_SECS });
    world.advance(PAST_PROLONGED);
    expect(names((await client.listAndLockHead({ limit: 4, lockSecs: LOCK_SECS })).items)).toEqual(['1', '4']);
    expect(names((await client.listAndLockHead({ limit: 4, lockSecs: LOCK_SECS })).items)).toEqual(['2']);
    expect(names((await client.listAndLockHead({ limit: 4, lockSecs: LOCK_SECS })).items)).toEqual(['3']);
  });

  it('purge and drop remove the stall counts', async () => {
    world = createWorld(backend, 'stalls-d');
    const client = await world.client('w', { maxStalls: 3 });
    await client.batchAddRequests([req(1)]);
    await client.listAndLockHead({ limit: 1, lockSecs: LOCK_SECS });
    await client.prolongRequestLock(requestIdOf('https://example.com/1'), { lockSecs: LOCK_SECS });
    world.advance(PAST_PROLONGED);
    await client.listAndLockHead({ limit: 1, lockSecs: LOCK_SECS });
    expect(await world.redis.hlen(world.admin().keys.stalls)).toBe(1);
    await world.admin().purge();
    expect(await world.redis.exists(world.admin().keys.stalls)).toBe(0);
  });
});

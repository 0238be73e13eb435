// maxStalls on one real Redis with a movable Redis clock: which lock expiries count as stalls, when a request is
// dead-lettered, the counters, one suspect per lock owner at a time, and requeue resetting the count.
import { storedFields } from '../../src/core/record-format.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestIdOf } from '../../src/core/request-codec.js';
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
    expect(storedFields(letters[0]!.raw.toString())).toMatchObject({ url: 'https://example.com/1' });
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

  it('a lock owner holds at most one request with a stall counted (neighbours of a killer are split up, also across calls)', async () => {
    world = createWorld(backend, 'stalls-c');
    const w = await world.client('w', { maxStalls: 3 });
    const v = await world.client('v', { maxStalls: 3 });
    const u = await world.client('u', { maxStalls: 3 });
    const suspects = world.admin().keys.suspects;
    await w.batchAddRequests([req(1), req(2), req(3), req(4), req(5)]);
    const id = (n: number) => requestIdOf(`https://example.com/${n}`);
    // A worker started 1, 2 and 3 together and died: each has one stall now.
    await w.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS });
    for (const n of [1, 2, 3]) await w.prolongRequestLock(id(n), { lockSecs: LOCK_SECS });
    world.advance(PAST_PROLONGED);
    expect(names((await w.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS })).items)).toEqual(['1', '4', '5']);
    // While w holds suspect 1, its next calls (a buffer run dry) get no other suspect, though they are first in line.
    const again = await w.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS });
    expect(names(again.items)).toEqual([]);
    expect(again.queueHasLockedRequests).toBe(true);
    // Other owners get one each.
    expect(names((await v.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS })).items)).toEqual(['2']);
    expect(names((await v.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS })).items)).toEqual([]);
    expect(names((await u.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS })).items)).toEqual(['3']);
    expect(await world.redis.hgetall(suspects)).toEqual({ w: id(1), v: id(2), u: id(3) });

    // w handles its suspect: it may take another one. v's lock ends by expiry (never started): v may too.
    await w.updateRequest({ ...req(1), id: id(1), handledAt: new Date().toISOString() });
    expect(await u.deleteRequestLock(id(3))).toBeUndefined();
    expect(names((await w.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS })).items)).toEqual(['3']);
    // Every lock expires unstarted (no stall): the owners' suspect entries go with them; v takes 2 and the rest.
    world.advance(LOCK_SECS * 1000 + 1);
    expect(names((await v.listAndLockHead({ limit: 5, lockSecs: LOCK_SECS })).items)).toEqual(['2', '4', '5']);
    expect(await world.redis.hget(suspects, 'w')).toBeNull();
    expect(await world.redis.hget(suspects, 'v')).toBe(id(2));
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
    expect(await world.redis.hlen(world.admin().keys.suspects)).toBe(1);
    await world.admin().purge();
    expect(await world.redis.exists(world.admin().keys.stalls)).toBe(0);
    expect(await world.redis.exists(world.admin().keys.suspects)).toBe(0);
  });
});

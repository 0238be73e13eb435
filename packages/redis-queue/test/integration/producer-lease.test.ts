// Producer leases on one queue, with a movable Redis clock: a live lease keeps queueHasLockedRequests true, its
// expiry is Redis time, release and the storage client's close() end it, and bad options write nothing.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
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
  await world?.cleanup();
});

describe('producer lease', () => {
  it('keeps an empty queue open until it expires on Redis time (no renewal: a dead producer)', async () => {
    world = createWorld(backend, 'leased');
    const producer = await world.client('producer');
    const worker = await world.client('worker');
    expect((await worker.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(false);
    await producer.holdOpen({ leaseSecs: 5, renewEverySecs: 0 });
    expect((await worker.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(true);
    world.advance(4_000);
    expect((await worker.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(true);
    world.advance(1_500);
    expect((await worker.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(false);
    expect(await world.redis.exists(producer.keys.leases)).toBe(0); // pruned by the poll
  });

  it('renew() moves the expiry; release() and the storage client close() end it', async () => {
    world = createWorld(backend, 'renewed');
    const sc = world.storageClient();
    await sc.requestQueues().getOrCreate(world.name);
    const producer = sc.requestQueue(world.name, { clientKey: 'producer' }) as Awaited<ReturnType<QueueWorld['client']>>;
    const worker = await world.client('worker');
    const lease = await producer.holdOpen({ leaseSecs: 5, renewEverySecs: 0 });
    world.advance(4_000);
    await lease.renew();
    world.advance(4_000);
    expect((await worker.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(true);
    await lease.release();
    await lease.release(); // idempotent
    expect((await worker.listAndLockHead({ limit: 1, lockSecs: 10 })).queueHasLockedRequests).toBe(false);

    await producer.holdOpen({ leaseSecs: 60 });
    expect(await world.admin().producerLeases()).toHaveLength(1);
    await sc.close();
    expect(await world.admin().producerLeases()).toEqual([]);
  });

  it('a lease does not hide work: requests are handed out while it is alive', async () => {
    world = createWorld(backend, 'work');
    const producer = await world.client('producer');
    await producer.holdOpen({ leaseSecs: 30 });
    await producer.addRequest(req(1));
    const worker = await world.client('worker');
    const head = await worker.listAndLockHead({ limit: 5, lockSecs: 10 });
    expect(head.items.map((i) => i.url)).toEqual([req(1).url]);
  });

  it('rejects out-of-range options before anything is written', async () => {
    world = createWorld(backend, 'bad');
    const producer = await world.client('producer');
    for (const options of [{ leaseSecs: 0 }, { leaseSecs: 3601 }, { leaseSecs: Number.NaN }, { leaseSecs: 10, renewEverySecs: 10 }, { renewEverySecs: -1 }, { id: '' }]) {
      await expect(producer.holdOpen(options)).rejects.toThrow(InvalidOptionsError);
      await expect(world.admin().openProducerLease(options)).rejects.toThrow(InvalidOptionsError);
    }
    expect(await world.redis.exists(producer.keys.leases)).toBe(0);
  });
});

// The politeness mode is fixed when a queue is created: a client with other settings is refused with a typed error
// and nothing is written; bad input to the politeness API is refused before anything is sent.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors/invalid-options-error.js';
import { InvalidRequestError } from '../../src/errors/invalid-request-error.js';
import { PolitenessMismatchError } from '../../src/errors/politeness-mismatch-error.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';
import { hreq } from './helpers.js';

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

describe('politeness mode', () => {
  it('a polite queue refuses an unpolite client and one with other settings; the same settings open it', async () => {
    world = createWorld(backend, 'mode-polite');
    await world.client('a', { politeness: { minDelaySecs: 2 } });
    await expect(world.client('b')).rejects.toThrow(PolitenessMismatchError);
    await expect(world.client('c', { politeness: { minDelaySecs: 3 } })).rejects.toThrow(/created with politeness \{ minDelaySecs: 2, maxConcurrencyPerHost: 1 \}/);
    await expect(world.client('d', { politeness: { minDelaySecs: 2, maxConcurrencyPerHost: 1 } })).resolves.toBeDefined();
  });

  it('an unpolite queue refuses a polite client; the scripts refuse a mixed call without writing', async () => {
    world = createWorld(backend, 'mode-plain');
    const plain = await world.client('a');
    await expect(world.client('b', { politeness: {} })).rejects.toThrow(PolitenessMismatchError);
    // A client that skipped the open check (Crawlee's requestQueue(id) without getOrCreate).
    const sneaky = world.storageClient({ politeness: {} }).requestQueue(world.name, { clientKey: 's' });
    await expect(sneaky.batchAddRequests([hreq('a.test', 1)])).rejects.toThrow(PolitenessMismatchError);
    await expect(sneaky.listAndLockHead({ limit: 1, lockSecs: 60 })).rejects.toThrow(PolitenessMismatchError);
    expect((await plain.get())?.totalRequestCount).toBe(0);
    await expect(plain.backOffHost('a.test', 1)).rejects.toThrow(PolitenessMismatchError);
    expect(await plain.politenessStats()).toMatchObject({ enabled: false, hosts: 0 });
  });

  it('an unpolite client that skipped the open check cannot add to a polite queue', async () => {
    world = createWorld(backend, 'mode-sneak');
    const polite = await world.client('a', { politeness: {} });
    const sneaky = world.storageClient().requestQueue(world.name, { clientKey: 's' });
    await expect(sneaky.batchAddRequests([hreq('a.test', 1)])).rejects.toThrow(PolitenessMismatchError);
    expect((await polite.get())?.totalRequestCount).toBe(0);
  });

  it('a dead letter with no readable request cannot go back into a polite queue (its host is unknown): refused, nothing written', async () => {
    world = createWorld(backend, 'mode-admin');
    const w = await world.client('a', { politeness: {} });
    await w.batchAddRequests([hreq('a.test', 1)]);
    await world.redis.hset(world.admin().keys.dead, 'x', '{}');
    await expect(world.admin().requeueDeadLetters()).rejects.toThrow(InvalidRequestError);
    expect(await world.admin().stats()).toMatchObject({ total: 1, pending: 1, deadLetters: 1 });
  });

  it('bad input: out-of-range options, a bad host or delay, a hostKey that fails: typed errors, nothing written', async () => {
    world = createWorld(backend, 'mode-input');
    expect(() => world.storageClient({ politeness: { minDelaySecs: -1 } })).toThrow(InvalidOptionsError);
    const w = await world.client('a', { politeness: { hostKey: (url) => (url.includes('bad') ? '' : new URL(url).hostname) } });
    await expect(w.backOffHost('', 1)).rejects.toThrow(InvalidOptionsError);
    await expect(w.backOffHost('a.test', -1)).rejects.toThrow(InvalidOptionsError);
    await expect(w.backOffHost('a.test', Number.POSITIVE_INFINITY)).rejects.toThrow(InvalidOptionsError);
    await expect(w.batchAddRequests([hreq('a.test', 1), hreq('bad.test', 1)])).rejects.toThrow(InvalidRequestError);
    expect((await w.get())?.totalRequestCount).toBe(0);
    expect(w.hostKeyOf('http://A.test:80/x')).toBe('a.test');
  });
});

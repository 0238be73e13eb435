import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { log } from 'crawlee';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PolitenessMismatchError } from '../../src/errors/politeness-mismatch-error.js';
import { QueueMissingError } from '../../src/errors/queue-missing-error.js';
import { queueKeys } from '../../src/core/keys.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { req } from '../helpers/world.js';

// A Redis wiped under running polite workers (FLUSHALL) must read as a queue gone, from every call, and no call may
// re-create the metadata without its politeness; a new queue (sharded or not) is format 2 from its first write, so
// it is never "migrated from 0.1".

let server: RedisServerHandle;
let admin: Redis;
const storages: RedisStorageClient[] = [];
beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});
afterAll(async () => {
  for (const s of storages) await s.close();
  await admin.quit();
  await server.destroy();
});

async function open(name: string, options: ConstructorParameters<typeof RedisStorageClient>[0] = {}, clientKey = 'a'): Promise<RedisRequestQueueClient> {
  const storage = new RedisStorageClient({ redis: server.url, workerStats: false, ...options });
  storages.push(storage);
  await storage.requestQueues().getOrCreate(name);
  return storage.requestQueue(name, { clientKey }) as RedisRequestQueueClient;
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('a wipe while polite workers run', () => {
  it('every polite call answers QueueMissingError (never a politeness mismatch), and none re-creates the meta', async () => {
    const politeness = { minDelaySecs: 0.01, maxConcurrencyPerHost: 2 };
    const a = await open('polite', { politeness });
    const b = await open('polite', { politeness }, 'b');
    await a.batchAddRequests([req(1), req(2), req(3)]);
    const [locked] = (await a.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
    expect(locked).toBeDefined();
    // b is running too (it has used the queue); a client's very first call on a queue it never opened creates it.
    // The host's delay (10 ms) counts from a's hand-out: b polls as a crawler does until the host is due.
    let got: Array<{ id: string }> = [];
    for (let i = 0; i < 200 && got.length === 0; i++) {
      got = (await b.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
      if (got.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(got).toHaveLength(1);
    // b starts it, as Crawlee does before it asks again (a call right after a polite hand-out, with the request not
    // started, may be answered locally: src/politeness/quiet-window.ts).
    await b.getRequest(got[0]!.id);

    await admin.flushall();

    // The worker finishing its request first (mark handled), then both asking for more.
    const handled = await rejection(a.updateRequest({ ...req(1), id: locked!.id, handledAt: new Date().toISOString() }));
    const nextA = await rejection(a.listAndLockHead({ limit: 1, lockSecs: 60 }));
    const nextB = await rejection(b.listAndLockHead({ limit: 1, lockSecs: 60 }));
    const add = await rejection(b.batchAddRequests([req(4)]));
    for (const error of [handled, nextA, nextB, add].filter((e) => e !== undefined)) {
      expect(error).not.toBeInstanceOf(PolitenessMismatchError);
    }
    expect(nextA).toBeInstanceOf(QueueMissingError);
    expect(nextB).toBeInstanceOf(QueueMissingError);
    expect(add).toBeInstanceOf(QueueMissingError);
    expect(await admin.exists(queueKeys('crawlee', 'polite').meta)).toBe(0);
  });
});

describe('a new queue', () => {
  for (const shards of [1, 3]) {
    it(`with shards: ${shards} is format 2 from the first write and logs no migration from 0.1`, async () => {
      const info = vi.spyOn(log, 'info');
      const name = `fresh-${shards}`;
      const client = await open(name, { shards });
      await client.batchAddRequests([req(1), req(2)]);
      const lines = info.mock.calls.map(([line]) => String(line)).filter((line) => /written by 0\.1|migrat/.test(line));
      info.mockRestore();
      expect(lines).toEqual([]);
      expect(await admin.hget(queueKeys('crawlee', name).meta, 'format')).toBe('2');
      expect(await client.get()).toMatchObject({ totalRequestCount: 2, pendingRequestCount: 2 });
    });
  }
});

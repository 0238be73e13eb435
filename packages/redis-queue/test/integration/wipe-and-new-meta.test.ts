import { log } from 'crawlee';
import { describe, expect, it, vi } from 'vitest';
import { PolitenessMismatchError } from '../../src/errors/politeness-mismatch-error.js';
import { QueueMissingError } from '../../src/errors/queue-missing-error.js';
import { queueKeys } from '../../src/core/keys.js';
import { ownRedis, rejection } from '../helpers/own-redis.js';
import { req } from '../helpers/world.js';

// A Redis wiped under running polite workers (FLUSHALL) must read as a queue gone, from every call, and no call may
// re-create the metadata without its politeness; a new queue (sharded or not) is format 2 from its first write, so
// it is never "migrated from 0.1".

const redis = ownRedis();
const { open } = redis;

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

    await redis.admin.flushall();

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
    expect(await redis.admin.exists(queueKeys('crawlee', 'polite').meta)).toBe(0);
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
      expect(await redis.admin.hget(queueKeys('crawlee', name).meta, 'format')).toBe('2');
      expect(await client.get()).toMatchObject({ totalRequestCount: 2, pendingRequestCount: 2 });
    });
  }
});

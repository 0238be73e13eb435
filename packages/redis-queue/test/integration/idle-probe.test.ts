import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { names, req } from '../helpers/world.js';

// An idle worker (nothing available, another worker holds the queue's only request) costs Redis little: between
// back-off steps it probes each shard with two plain commands instead of running the lock script on every shard
// (a dozen commands each). Measured as Redis counts them (INFO commandstats, commands inside scripts included, the
// holder's heartbeat too) on a redis-server of the test's own. A dead holder's lock still comes back as before.

let server: RedisServerHandle;
let admin: Redis;
beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});
afterAll(async () => {
  await admin.quit();
  await server.destroy();
});

async function commandsRun(): Promise<number> {
  const info = await admin.info('commandstats');
  let n = 0;
  for (const m of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) if (m[1] !== 'info') n += Number(m[2]);
  return n;
}

async function client(name: string, clientKey: string, shards: number): Promise<{ sc: RedisStorageClient; q: RedisRequestQueueClient }> {
  const sc = new RedisStorageClient({ redis: server.url, keyPrefix: 'idleprobe', workerStats: false, shards });
  await sc.requestQueues().getOrCreate(name);
  return { sc, q: sc.requestQueue(name, { clientKey }) as RedisRequestQueueClient };
}

describe('an idle worker', () => {
  it.each([1, 4])('costs Redis under 20 commands per second, and a dead holder\'s lock still comes back (shards: %i)', async (shards) => {
    const name = `idle-${shards}`;
    const holder = await client(name, 'holder', shards);
    const idle = await client(name, 'idle', shards);
    await holder.q.batchAddRequests([req(1)]);
    expect((await holder.q.listAndLockHead({ limit: 1, lockSecs: 3600 })).items).toHaveLength(1);
    // Crawlee's pace while nothing is available: a task check and a finish check every few ms to 0.5 s.
    const poll = async (ms: number, until: () => boolean = () => false) => {
      const started = performance.now();
      while (performance.now() - started < ms && !until()) {
        const head = await idle.q.listAndLockHead({ limit: 25, lockSecs: 60 });
        if (head.items.length > 0) return names(head.items);
        expect(head.queueHasLockedRequests).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return [];
    };
    await poll(2000); // into the back-off's longest step
    const before = await commandsRun();
    const t0 = performance.now();
    await poll(4000);
    const perSec = ((await commandsRun()) - before) / ((performance.now() - t0) / 1000);
    expect(perSec).toBeLessThan(20);

    await holder.sc.close(); // stops beating, as a SIGKILLed worker does (its lock stays)
    const gone = performance.now();
    const got = await poll(9000);
    expect(got).toEqual(['1']);
    // One liveness window (5 s) after the last beat, plus at most one back-off step.
    expect(performance.now() - gone).toBeLessThan(7500);
    await idle.sc.close();
  }, 30_000);
});

import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { req } from '../helpers/world.js';

// A private server: MONITOR must see only this test's commands.
let server: RedisServerHandle;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.destroy();
});

/** Redis commands run inside the scripts of one hot-path cycle, on a queue holding `handled` handled requests. */
async function commandsPerCycle(handled: number): Promise<Record<string, number>> {
  const redis = new Redis(server.url);
  const storage = new RedisStorageClient({ redis, keyPrefix: `scan-${handled}` });
  await storage.requestQueues().getOrCreate('q');
  const client = storage.requestQueue('q', { clientKey: 'a' }) as RedisRequestQueueClient;
  const done = new Date().toISOString();
  for (let start = 0; start < handled; start += 1000) {
    await client.batchAddRequests(Array.from({ length: Math.min(1000, handled - start) }, (_, i) => req(`h${start + i}`, { handledAt: done })));
  }
  await client.batchAddRequests([req('p1'), req('p2'), req('p3')]);

  const monitorOwner = new Redis(server.url);
  const monitor = await monitorOwner.monitor();
  const seen: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') seen.push(args);
  });
  const counts: Record<string, number> = {};
  const measure = async (label: string, operation: () => Promise<unknown>) => {
    await redis.ping();
    const before = seen.length;
    await operation();
    await redis.ping(); // MONITOR output of the operation has arrived once this reply has
    await new Promise((resolve) => setTimeout(resolve, 50));
    counts[label] = seen.length - before;
  };
  let id = '';
  await measure('listAndLockHead', async () => {
    id = (await client.listAndLockHead({ limit: 2, lockSecs: 60 })).items[0]!.id;
  });
  await measure('prolongRequestLock', () => client.prolongRequestLock(id, { lockSecs: 60 }));
  await measure('updateRequest(handled)', () => client.updateRequest({ ...req('p1'), id, handledAt: done }));
  await measure('addRequest(duplicate)', () => client.addRequest(req('h0')));
  await client.listAndLockHead({ limit: 5, lockSecs: 60 });
  await measure('listAndLockHead(idle)', () => client.listAndLockHead({ limit: 25, lockSecs: 60 }));
  monitor.disconnect();
  monitorOwner.disconnect();
  await redis.quit();
  // Every command the scripts ran touches a bounded part of a structure: single fields or members, or ranges with a
  // small explicit bound. A whole-structure read (HGETALL, SMEMBERS, KEYS, SCAN, ZRANGE 0 -1) would show up here.
  for (const [command, ...args] of seen) {
    const name = command!.toUpperCase();
    expect(['KEYS', 'SCAN', 'HSCAN', 'ZSCAN', 'SSCAN', 'HGETALL', 'HKEYS', 'HVALS', 'SMEMBERS']).not.toContain(name);
    // The lock script reads the lists' heads and back in chunks of its limit (at most 25 here) + 16 entries.
    if (name === 'ZRANGE' || name === 'LRANGE') {
      expect(Number(args[2])).toBeGreaterThanOrEqual(0);
      expect(Number(args[2]) - Number(args[1])).toBeLessThan(25 + 16);
    }
    if (name === 'ZRANGEBYSCORE') expect(args).toContain('LIMIT');
  }
  return counts;
}

describe('no O(queue) work on the hot path', () => {
  it('the commands each script runs do not grow with the number of handled requests', async () => {
    const small = await commandsPerCycle(10);
    const large = await commandsPerCycle(5000);
    expect(large).toEqual(small);
    for (const count of Object.values(large)) expect(count).toBeLessThan(40);
    expect(large['listAndLockHead(idle)']).toBeGreaterThan(0);
  });
});

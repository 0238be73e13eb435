import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { RedisStorageClient } from '../../src/storage/redis-storage-client.js';
import { names, req } from '../helpers/world.js';

let server: RedisServerHandle;
beforeAll(async () => {
  server = await startRedisServer({ appendOnly: true });
});
afterAll(async () => {
  await server.destroy();
});

describe('Redis restart (AOF on)', () => {
  it('an owned connection waits through a crash and restart; scripts reload (NOSCRIPT) and the queue state survives', async () => {
    const storage = new RedisStorageClient({ redis: server.url, keyPrefix: 'restart' });
    await storage.requestQueues().getOrCreate('q');
    const client = storage.requestQueue('q', { clientKey: 'a' }) as RedisRequestQueueClient;
    await client.batchAddRequests([req(1), req(2), req(3)]);
    const [first] = (await client.listAndLockHead({ limit: 1, lockSecs: 120 })).items;
    await client.updateRequest({ ...req(1), id: first!.id, handledAt: new Date().toISOString() });

    await server.kill(); // SIGKILL: acknowledged writes are in the AOF file already (fsync only matters for a host crash)
    const during = client.listAndLockHead({ limit: 1, lockSecs: 120 }); // queued by ioredis while Redis is down
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await server.restart();

    expect(names((await during).items)).toEqual(['2']);
    expect(await client.get()).toMatchObject({ totalRequestCount: 3, handledRequestCount: 1, pendingRequestCount: 2 });
    const admin = new RedisQueueAdmin({ redis: storage.redis, keyPrefix: 'restart', name: 'q' });
    expect(await admin.stats()).toEqual({ total: 3, pending: 2, locked: 1, handled: 1, deadLetters: 0 });
    await admin.drop();
    await storage.close();
  });
});

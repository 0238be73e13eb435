import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';

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

const url = (i: number) => `https://dup.example/p/${i}`;

describe('duplicates filtered: one figure, whoever answered', () => {
  it("counts requests not taken as new through a RedisRequestQueue, Crawlee's request cache included, and feed duplicates", async () => {
    world = createWorld(backend);
    const feedKey = `${world.name}-feed`;
    const sc = world.storageClient({ workerStats: { intervalSecs: 60 }, startUrls: { key: feedKey } });
    const queue = await openRedisRequestQueue(world.name, { storageClient: sc });
    let offered = 0;
    let added = 0;
    const offer = async (urls: string[]) => {
      const result = await queue.addRequests(urls);
      offered += urls.length;
      added += result.processedRequests.filter((r) => !r.wasAlreadyPresent).length;
    };
    await offer([url(1), url(2)]);
    await offer([url(1), url(2), url(3), url(3)]); // two answered by Crawlee's request cache, one repeated in the call
    const single = await queue.addRequest({ url: url(3) });
    offered += 1;
    expect(single.wasAlreadyPresent).toBe(true);
    // Another process (its own cache, empty): the queue's uniqueKey check answers.
    const other = await openRedisRequestQueue(world.name, { storageClient: world.storageClient({ workerStats: false }) });
    const fromOther = await other.addRequests([url(1), url(4)]);
    expect(fromOther.processedRequests.map((r) => r.wasAlreadyPresent)).toEqual([true, false]);
    // The feed drains a duplicate and a new page when nothing is available.
    await world.redis.rpush(feedKey, url(2), url(5));
    for (let i = 0; i < 4; i++) await queue.client.listAndLockHead({ limit: 10, lockSecs: 60 });
    expect(await world.redis.llen(feedKey)).toBe(0);
    await sc.close();
    // This worker's figure: 2 + 1 answered by Crawlee's request cache and 1 repeated in a call (offered - added
    // through it), plus the feed's duplicate; the other client publishes no stats (workerStats: false).
    expect(offered - added).toBe(4);
    expect((await world.admin().crawlStats()).alreadyPresent).toBe(offered - added + 1);
  });
});

import { BasicCrawler, Configuration, log } from 'crawlee';
import { describe, expect, it } from 'vitest';
import { QueueMissingError } from '../../src/errors/queue-missing-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { queueKeys } from '../../src/core/keys.js';
import { ownRedis, rejection } from '../helpers/own-redis.js';
import { req } from '../helpers/world.js';

// A Redis that comes back empty under running workers (FLUSHALL, a restart without persistence): the queue's
// metadata is gone with its requests. No script re-creates it (a worker that did would crawl on with the pages lost
// and finish "successfully"): a lock call that finds nothing, an add and a request update answer QueueMissingError,
// and a crawler's run() rejects with it.

const redis = ownRedis();
const { open } = redis;

describe('a queue whose Redis lost its data', () => {
  for (const shards of [1, 3]) {
    it(`every call that would write or finish answers QueueMissingError, and none re-creates the meta (shards: ${shards})`, async () => {
      const name = `lost-${shards}`;
      const a = await open(name, { shards });
      const b = await open(name, { shards }, 'b');
      await a.batchAddRequests([req(1), req(2), req(3)]);
      const [locked] = (await a.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
      expect(locked).toBeDefined();
      // b has been running too (a client's very first call on a queue it never used creates the queue).
      expect((await b.listAndLockHead({ limit: 1, lockSecs: 60 })).items).toHaveLength(1);

      await redis.admin.flushall();

      const handled = await rejection(a.updateRequest({ ...req(1), id: locked!.id, handledAt: new Date().toISOString() }));
      const nextA = await rejection(a.listAndLockHead({ limit: 5, lockSecs: 60 }));
      const nextB = await rejection(b.listAndLockHead({ limit: 5, lockSecs: 60 }));
      const add = await rejection(b.batchAddRequests([req(4)]));
      for (const error of [handled, nextA, nextB, add]) {
        expect(error).toBeInstanceOf(QueueMissingError);
        expect((error as Error).message).toMatch(/metadata is gone.*Redis lost its data.*appendonly/s);
      }
      // Only the workers' heartbeats (their own key, which expires) were written since.
      expect((await redis.admin.keys('*')).filter((key) => !key.endsWith(':live'))).toEqual([]);
      expect(await redis.admin.exists(queueKeys('crawlee', name).meta)).toBe(0);
    });
  }

  it('a worker that starts after the wipe creates the queue anew; one that ran before does not finish in it', async () => {
    const old = await open('lost-epoch');
    await old.batchAddRequests([req(1), req(2)]);
    const [locked] = (await old.listAndLockHead({ limit: 1, lockSecs: 60 })).items;
    expect(locked).toBeDefined();
    await redis.admin.flushall();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await open('lost-epoch', {}, 'late');
    expect(await late.listAndLockHead({ limit: 5, lockSecs: 60 })).toMatchObject({ items: [], queueHasLockedRequests: false });
    const error = await rejection(old.listAndLockHead({ limit: 5, lockSecs: 60 }));
    expect(error).toBeInstanceOf(QueueMissingError);
    expect((error as Error).message).toMatch(/created again since this worker started on it/);
  });

  it("a crawler's run() rejects with QueueMissingError instead of finishing with the pages lost", async () => {
    const queue = await openRedisRequestQueue('lost-crawl', { redis: redis.url, keyPrefix: 'lostcrawl', workerStats: false, requestHandlerTimeoutSecs: 10 });
    await queue.addRequests(Array.from({ length: 50 }, (_, i) => req(100 + i)));
    let handled = 0;
    let flushed = false;
    log.setLevel(log.LEVELS.OFF);
    const crawler = new BasicCrawler(
      {
        requestQueue: queue,
        maxConcurrency: 2,
        maxRequestRetries: 0,
        async requestHandler({ request }) {
          handled++;
          if (handled === 5 && !flushed) {
            flushed = true;
            await redis.admin.flushall();
          }
          await queue.addRequest({ url: `${request.url}/next`, uniqueKey: `${request.uniqueKey}/next` });
        },
      },
      new Configuration({ persistStorage: false, purgeOnStart: false }),
    );
    const error = await rejection(crawler.run());
    log.setLevel(log.LEVELS.INFO);
    expect(flushed).toBe(true);
    expect(error).toBeInstanceOf(QueueMissingError);
    // Nothing re-created the queue under the crawler.
    expect(await redis.admin.exists(queueKeys('lostcrawl', 'lost-crawl').meta)).toBe(0);
    await queue.close?.().catch(() => undefined);
  }, 60_000);
});

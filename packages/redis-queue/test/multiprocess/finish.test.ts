import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from '../../src/admin/redis-queue-admin.js';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const REQUESTS = 40;

/**
 * A worker as a user writes it: a BasicCrawler on `openRedisRequestQueue`, then the documented finish,
 * `await requestQueue.close()`, in a plain Node process (vitest's own workers would hide a process that never exits).
 * The worker-stats interval is long, so only the final publish can carry the counters.
 */
function workerSource(redisUrl: string, keyPrefix: string, name: string, ownConnection: boolean): string {
  return `
    import { BasicCrawler, Configuration } from 'crawlee';
    import { Redis } from 'ioredis';
    import { openRedisRequestQueue } from 'crawlee-redis-queue';
    const url = ${JSON.stringify(redisUrl)};
    const redis = ${ownConnection ? 'new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true })' : 'url'};
    const requestQueue = await openRedisRequestQueue(${JSON.stringify(name)}, {
      redis, keyPrefix: ${JSON.stringify(keyPrefix)}, workerStats: { intervalSecs: 600 },
    });
    const crawler = new BasicCrawler({ requestQueue, async requestHandler() {} }, new Configuration({ persistStorage: false }));
    await crawler.run(Array.from({ length: ${REQUESTS} }, (_, i) => 'https://example.com/' + i));
    await requestQueue.close();
    await requestQueue.close(); // idempotent
    ${ownConnection ? "console.log('connection after close: ' + redis.status); await redis.quit();" : ''}
    console.log('finished');
  `;
}

describe('finishing a worker with requestQueue.close()', () => {
  it.each([
    ['its own ioredis connection (left open for the user to quit)', true],
    ['a connection created from a URL (closed by close())', false],
  ])(
    'with %s: the process exits, final stats are published, the worker shows stopped',
    async (_label, own) => {
      const redisUrl = inject('redisUrl');
      const keyPrefix = `finish-${randomUUID().slice(0, 8)}`;
      const name = 'finish';
      const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix, name });
      try {
        // execFile's timeout kills a process that never exits: the test then fails on the rejected promise.
        const { stdout } = await run(
          process.execPath,
          ['--input-type=module', '-e', workerSource(redisUrl, keyPrefix, name, own)],
          {
            cwd: PACKAGE_DIR,
            timeout: 45_000,
          },
        );
        expect(stdout).toContain('finished');
        if (own) expect(stdout).toContain('connection after close: ready');
        expect(await admin.stats()).toMatchObject({ handled: REQUESTS, pending: 0, locked: 0 });
        expect((await admin.crawlStats()).handled).toBe(REQUESTS);
        const workers = await admin.workers();
        expect(workers).toHaveLength(1);
        expect(workers[0]).toMatchObject({ state: 'stopped', handled: REQUESTS, locks: 0 });
        expect(await admin.producerLeases()).toEqual([]);
      } finally {
        await admin.dropHashTag();
        await admin.close();
      }
    },
  );

  it('without close(), the crawler run on requestQueue.crawlerConfig still publishes every count before the user quits the connection', async () => {
    const redisUrl = inject('redisUrl');
    const keyPrefix = `finish-${randomUUID().slice(0, 8)}`;
    const name = 'teardown';
    const source = `
      import { BasicCrawler } from 'crawlee';
      import { Redis } from 'ioredis';
      import { openRedisRequestQueue } from 'crawlee-redis-queue';
      const redis = new Redis(${JSON.stringify(redisUrl)}, { maxRetriesPerRequest: null });
      const requestQueue = await openRedisRequestQueue(${JSON.stringify(name)}, { redis, keyPrefix: ${JSON.stringify(keyPrefix)}, workerStats: { intervalSecs: 600 } });
      const crawler = new BasicCrawler({ requestQueue, async requestHandler() {} }, requestQueue.crawlerConfig);
      await crawler.run(Array.from({ length: ${REQUESTS} }, (_, i) => 'https://example.com/' + i));
      await redis.quit();
    `;
    const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix, name });
    try {
      await run(process.execPath, ['--input-type=module', '-e', source], {
        cwd: PACKAGE_DIR,
        timeout: 45_000,
      });
      expect((await admin.stats()).handled).toBe(REQUESTS);
      // Crawlee's end-of-run teardown of the storage client published the counters of the last interval.
      expect((await admin.crawlStats()).handled).toBe(REQUESTS);
      expect((await admin.workers())[0]).toMatchObject({ handled: REQUESTS });
    } finally {
      await admin.dropHashTag();
      await admin.close();
    }
  });

  it('releases the locks and producer leases the worker still holds', async () => {
    const redisUrl = inject('redisUrl');
    const keyPrefix = `finish-${randomUUID().slice(0, 8)}`;
    const { openRedisRequestQueue } = await import('../../src/open-redis-request-queue.js');
    const queue = await openRedisRequestQueue('locks', {
      redis: redisUrl,
      keyPrefix,
      workerStats: { intervalSecs: 600 },
    });
    const admin = new RedisQueueAdmin({ redis: redisUrl, keyPrefix, name: 'locks' });
    try {
      await queue.addRequests(Array.from({ length: 5 }, (_, i) => ({ url: `https://example.com/${i}` })));
      await queue.holdOpen({ leaseSecs: 60 });
      const fetched = await queue.fetchNextRequest();
      expect(fetched).toBeTruthy();
      expect((await admin.stats()).locked).toBeGreaterThan(0);
      expect(await admin.producerLeases()).toHaveLength(1);
      await queue.close();
      expect((await admin.stats()).locked).toBe(0);
      expect(await admin.producerLeases()).toEqual([]);
      expect((await admin.workers())[0]).toMatchObject({ state: 'stopped', locks: 0 });
    } finally {
      await admin.dropHashTag();
      await admin.close();
    }
  });
});

// Several concurrent polite consumers in this process, each on its own connection, on real time: the gap between
// two requests to one host never under minDelaySecs (a few ms for timers), in-flight per host never above
// maxConcurrencyPerHost, no consumer idle for long while a host is allowed (the crawl takes about the bound the
// slowest host imposes), and Crawlee's BasicCrawler does not finish while hosts wait.
import { BasicCrawler, Configuration } from 'crawlee';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import type { RedisRequestQueueClient } from '../../src/storage/redis-request-queue-client.js';
import { createBackend, type TestBackend } from '../helpers/backends.js';
import { createWorld, type QueueWorld } from '../helpers/world.js';
import { mostInFlight, smallestGaps, smallestStartGaps, type Visit } from './gap-log.js';
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

/** Timer and event-loop slack allowed below the delay, in ms (the queue's own rule is exact on Redis time). */
const SLACK_MS = 5;

/** A consumer loop: lock up to `limit`, "fetch" each for `workMs`, mark it handled; stop when the queue is finished.
 * Start is taken after the lock reply, end before the handled mark is sent, so both bracket what Redis saw. */
async function consume(client: RedisRequestQueueClient, visits: Visit[], workMs: number, limit = 3): Promise<void> {
  for (;;) {
    const head = await client.listAndLockHead({ limit, lockSecs: 60 });
    if (head.items.length === 0) {
      if (!head.queueHasLockedRequests) return;
      await sleep(5);
      continue;
    }
    await Promise.all(
      head.items.map(async (item) => {
        const start = performance.timeOrigin + performance.now();
        await sleep(workMs);
        const end = performance.timeOrigin + performance.now();
        visits.push({ host: new URL(item.url).host, start, end });
        await client.updateRequest({ ...(await client.getRequest(item.id))!, id: item.id, handledAt: new Date().toISOString() } as never);
      }),
    );
  }
}

describe('polite consumers on real time', () => {
  it('4 consumers, 10 hosts, minDelaySecs 0.25: every gap holds, one request per host at a time, total near the bound', async () => {
    world = createWorld(backend, 'consumers-delay');
    const opts = { politeness: { minDelaySecs: 0.25 } };
    const clients = await Promise.all([0, 1, 2, 3].map((i) => world.client(`c${i}`, opts)));
    const hosts = Array.from({ length: 10 }, (_, i) => `h${i}.test`);
    await clients[0]!.batchAddRequests(hosts.flatMap((h) => [1, 2, 3, 4].map((n) => hreq(h, n))));
    const visits: Visit[] = [];
    const started = performance.now();
    await Promise.all(clients.map((c) => consume(c, visits, 20)));
    const took = performance.now() - started;
    expect(visits).toHaveLength(40);
    for (const [host, gap] of smallestGaps(visits)) expect(gap, host).toBeGreaterThanOrEqual(250 - SLACK_MS);
    for (const [host, most] of mostInFlight(visits)) expect(most, host).toBe(1);
    // The slowest host needs 4 visits of 20 ms and 3 gaps of 250 ms: about 0.83 s. Far above that would mean
    // consumers idled while hosts were allowed (a generous margin: the machine is shared).
    expect(took).toBeGreaterThanOrEqual(3 * 250);
    expect(took).toBeLessThan(4000);
  });

  it('maxConcurrencyPerHost 2 without a delay: never more than 2 of one host at once, and other hosts are not held up', async () => {
    world = createWorld(backend, 'consumers-conc');
    const opts = { politeness: { maxConcurrencyPerHost: 2 } };
    const clients = await Promise.all([0, 1, 2].map((i) => world.client(`c${i}`, opts)));
    await clients[0]!.batchAddRequests([
      ...Array.from({ length: 30 }, (_, n) => hreq('big.test', n)),
      ...Array.from({ length: 6 }, (_, n) => hreq('small.test', n)),
    ]);
    const visits: Visit[] = [];
    await Promise.all(clients.map((c) => consume(c, visits, 15, 4)));
    expect(visits).toHaveLength(36);
    const most = mostInFlight(visits);
    expect(most.get('big.test')).toBeLessThanOrEqual(2);
    expect(most.get('small.test')).toBeLessThanOrEqual(2);
    // small.test is not queued behind big.test's 30 requests: it is done within the first half of the crawl.
    const lastSmall = Math.max(...visits.filter((v) => v.host === 'small.test').map((v) => v.end));
    const lastBig = Math.max(...visits.filter((v) => v.host === 'big.test').map((v) => v.end));
    const first = Math.min(...visits.map((v) => v.start));
    expect(lastSmall - first).toBeLessThan((lastBig - first) / 2);
  });

  it('maxConcurrencyPerHost 3 with minDelaySecs 0.1: hand-outs of one host spaced by the delay, at most 3 in flight', async () => {
    world = createWorld(backend, 'consumers-both');
    const opts = { politeness: { minDelaySecs: 0.1, maxConcurrencyPerHost: 3 } };
    const clients = await Promise.all([0, 1, 2].map((i) => world.client(`c${i}`, opts)));
    await clients[0]!.batchAddRequests(Array.from({ length: 12 }, (_, n) => hreq('a.test', n)));
    const visits: Visit[] = [];
    await Promise.all(clients.map((c) => consume(c, visits, 250, 2)));
    expect(visits).toHaveLength(12);
    expect(smallestStartGaps(visits).get('a.test')).toBeGreaterThanOrEqual(100 - SLACK_MS);
    expect(mostInFlight(visits).get('a.test')).toBeLessThanOrEqual(3);
    expect(mostInFlight(visits).get('a.test')).toBeGreaterThan(1); // overlapping is allowed and happens
  });

  it("Crawlee's BasicCrawler keeps running while hosts wait, and handles every request once", async () => {
    world = createWorld(backend, 'consumers-crawlee');
    const requestQueue = await openRedisRequestQueue(world.name, { redis: backend.connect(), keyPrefix: world.keyPrefix, politeness: { minDelaySecs: 0.3 } });
    const seen: Visit[] = [];
    const crawler = new BasicCrawler(
      {
        requestQueue,
        maxConcurrency: 4,
        requestHandler({ request }) {
          const t = performance.timeOrigin + performance.now();
          seen.push({ host: new URL(request.url).host, start: t, end: t });
          return Promise.resolve();
        },
      },
      new Configuration({ persistStorage: false, purgeOnStart: true }),
    );
    await crawler.run(['a.test', 'b.test'].flatMap((h) => [1, 2, 3].map((n) => `http://${h}/${n}`)));
    expect(seen).toHaveLength(6);
    // Measured in the handler (after Crawlee's own steps), so allow a wider margin than the queue's exact rule.
    for (const [host, gap] of smallestStartGaps(seen)) expect(gap, host).toBeGreaterThanOrEqual(300 - 50);
    await requestQueue.client.redis.quit();
  });
});

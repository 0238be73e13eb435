import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchesByIdentity, reachable, SiteModel, startSiteServer } from '../src/index.js';
import { duplicates, Harness, until } from './helpers/harness.js';

// (b) Two Scrapy processes (scrapy-redis scheduler and dupefilter) and two Crawlee workers (crawlee-redis-queue +
// RedisSetDedupStore on the same <spider>:dupefilter) crawl one site at the same time. Judged by the site's access
// log, every page is fetched exactly once across the four processes.
const harness = new Harness();
beforeAll(() => harness.start());
afterEach(() => harness.stopProcesses());
afterAll(() => harness.stop());

describe('both fleets at once (2 Scrapy + 2 Crawlee processes)', () => {
  it('fetches every page exactly once across both fleets', async () => {
    const model = new SiteModel({ pagesPerSection: 40 });
    // Slow pages keep both fleets busy at once (a page takes 300 ms, the whole site a few seconds per fleet).
    const site = await startSiteServer(model, {
      delayMs: 300,
      accessLogFile: `${harness.logDir}/access-b.jsonl`,
    });
    try {
      const spider = harness.name('interop-b');
      const queue = harness.name('rq-b');
      await harness.redis.lpush(`${spider}:start_urls`, JSON.stringify({ url: site.origin + model.seed(1) }));
      // scrapy-redis marks a page seen when it is discovered, long before it is fetched, so a fleet that started a
      // second late would find the whole site claimed. So the Crawlee workers start first and wait on a start-URL list
      // of their own; the Scrapy workers start with their seed, and the moment the site sees Scrapy's first request
      // the Crawlee seed goes into that list (the workers poll it twice a second). Both Crawlee workers get it pushed
      // (the same URL twice: it is enqueued and fetched once).
      const crawleeFeed = `${queue}:start_urls`;
      const crawlee = [
        harness.crawlee({ queue, spider, worker: 'c1', feedKey: crawleeFeed, idleSecs: 10 }),
        harness.crawlee({ queue, spider, worker: 'c2', feedKey: crawleeFeed, idleSecs: 10 }),
      ];
      await Promise.all(crawlee.map((p) => p.waitFor(/^ready$/m, 60_000)));
      const scrapy = [harness.scrapy({ spider, worker: 's1' }), harness.scrapy({ spider, worker: 's2' })];
      await until(() => site.log.byFleet('scrapy').length > 0, 60_000, 'the first Scrapy request');
      const crawleeSeed = JSON.stringify({ url: site.origin + model.seed(0) });
      await harness.redis.rpush(crawleeFeed, crawleeSeed, crawleeSeed);
      for (const p of [...scrapy, ...crawlee]) expect(await p.waitForExit(150_000), p.tail()).toBe(0);

      const all = reachable(model, site.origin, [model.seed(0), model.seed(1)]);
      const fetched = fetchesByIdentity(site.log.entries, site.origin);
      expect(duplicates(site.log.entries, site.origin), 'pages fetched more than once').toEqual([]);
      const missing = [...all.keys()].filter((id) => !fetched.has(id)).map((id) => all.get(id));
      expect(missing, 'pages nobody fetched').toEqual([]);
      expect(fetched.size).toBe(all.size);
      expect(site.log.entries.every((e) => e.status === 200)).toBe(true);

      // Both fleets did part of the crawl, at the same time.
      const scrapyLog = site.log.byFleet('scrapy');
      const crawleeLog = site.log.byFleet('crawlee');
      expect(scrapyLog.length).toBeGreaterThan(5);
      expect(crawleeLog.length).toBeGreaterThan(5);
      expect(crawleeLog[0]!.time).toBeLessThan(scrapyLog.at(-1)!.time);
      for (const worker of ['scrapy-fleet/s1', 'scrapy-fleet/s2', 'crawlee-fleet/c1', 'crawlee-fleet/c2']) {
        expect(
          site.log.entries.some((e) => e.userAgent === worker),
          `${worker} fetched nothing`,
        ).toBe(true);
      }
    } finally {
      await site.close();
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchesByIdentity, reachable, SiteModel, startSiteServer } from '../src/index.js';
import { duplicates, Harness, until } from './helpers/harness.js';

// (c) One scrapy-redis start-URL feed (the Redis list <spider>:start_urls) consumed by both fleets: the Scrapy spider
// pops batches with LRANGE + LTRIM, the Crawlee worker drains the same list through crawlee-redis-queue's feed.
// Every item is taken by exactly one fleet, every entry page fetched once, the list ends empty.
const harness = new Harness();
beforeAll(() => harness.start());
afterEach(() => harness.stopProcesses());
afterAll(() => harness.stop());

describe('one start-URL feed consumed by both fleets', () => {
  it('hands every feed item to exactly one fleet, and both fleets take some', async () => {
    const model = new SiteModel({ pagesPerSection: 20 });
    // Slow entry pages: one fleet alone would need about 8 s for the feed, so the second one joins in time.
    const site = await startSiteServer(model, {
      delayMs: 20,
      seedDelayMs: 800,
      accessLogFile: `${harness.logDir}/access-c.jsonl`,
    });
    try {
      const spider = harness.name('interop-c');
      const feed = `${spider}:start_urls`;
      const seeds = Array.from({ length: 20 }, (_, j) => model.seed(j));
      // scrapy-redis JSON items (url + meta); crawlee-redis-queue reads the same format (meta becomes userData).
      await harness.redis.rpush(
        feed,
        ...seeds.map((s, j) => JSON.stringify({ url: site.origin + s, meta: { item: j } })),
      );

      // scrapy-redis pops its first batch as the spider opens (and closes early if the feed was empty then), so Scrapy
      // starts first and Crawlee joins on Scrapy's first request.
      const scrapy = harness.scrapy({ spider, worker: 's1', batchSize: 2 });
      await until(() => site.log.byFleet('scrapy').length > 0, 60_000, 'the first Scrapy request');
      const crawlee = harness.crawlee({
        queue: harness.name('rq-c'),
        spider,
        worker: 'c1',
        feedKey: feed,
        feedBatch: 2,
        concurrency: 2,
      });
      for (const p of [scrapy, crawlee]) expect(await p.waitForExit(150_000), p.tail()).toBe(0);

      expect(await harness.redis.llen(feed), 'items left in the feed').toBe(0);
      const seedFetches = site.log.entries.filter((e) => e.path.startsWith('/seed/'));
      expect(seedFetches.map((e) => e.path).sort()).toEqual([...seeds].sort());
      const byScrapy = seedFetches.filter((e) => e.userAgent.startsWith('scrapy-fleet/')).length;
      const byCrawlee = seedFetches.filter((e) => e.userAgent.startsWith('crawlee-fleet/')).length;
      expect(byScrapy, 'feed items Scrapy took').toBeGreaterThan(0);
      expect(byCrawlee, 'feed items Crawlee took').toBeGreaterThan(0);

      // And the pages behind the entry pages: each fetched once across both fleets.
      const all = reachable(model, site.origin, seeds);
      const fetched = fetchesByIdentity(site.log.entries, site.origin);
      expect(duplicates(site.log.entries, site.origin), 'pages fetched more than once').toEqual([]);
      expect(
        [...all.keys()].filter((id) => !fetched.has(id)).map((id) => all.get(id)),
        'pages nobody fetched',
      ).toEqual([]);
      expect(fetched.size).toBe(all.size);
    } finally {
      await site.close();
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchesByIdentity, pageIdentity, reachable, SiteModel, startSiteServer } from '../src/index.js';
import { duplicates, Harness } from './helpers/harness.js';

// (a) A Scrapy fleet (Debian's Scrapy 2.8 + the vendored scrapy-redis) crawls part of a site; then a Crawlee worker
// on the same Redis crawls the whole site. With the shared <spider>:dupefilter and scrapy-redis fingerprints of
// Scrapy 2.8's Request (scrapyRequest '<=2.12'), Crawlee fetches exactly what Scrapy did not.
const harness = new Harness();
beforeAll(() => harness.start());
afterEach(() => harness.stopProcesses());
afterAll(() => harness.stop());

describe('Scrapy first, then Crawlee on the same Redis', () => {
  it('Crawlee fetches only the pages Scrapy did not fetch, each once', async () => {
    const model = new SiteModel({ pagesPerSection: 24 });
    const site = await startSiteServer(model, {
      delayMs: 5,
      accessLogFile: `${harness.logDir}/access-a.jsonl`,
    });
    try {
      const spider = harness.name('interop-a');
      const scrapySeed = site.origin + model.seed(1);
      const crawleeSeed = site.origin + model.seed(0);
      const scrapySection = (path: string) => path.startsWith('/a/');

      await harness.redis.lpush(`${spider}:start_urls`, JSON.stringify({ url: scrapySeed }));
      const scrapy = harness.scrapy({ spider, worker: 's1', follow: '^/a/' });
      expect(await scrapy.waitForExit(120_000), scrapy.tail()).toBe(0);

      const expectedScrapy = reachable(model, site.origin, [model.seed(1)], scrapySection);
      const scrapyFetched = fetchesByIdentity(site.log.byFleet('scrapy'), site.origin);
      expect([...scrapyFetched.keys()].sort()).toEqual([...expectedScrapy.keys()].sort());
      expect(site.log.byFleet('scrapy').some((e) => e.path.includes('_escaped_fragment_=tab%3D'))).toBe(true);

      const crawlee = harness.crawlee({
        queue: harness.name('rq-a'),
        spider,
        worker: 'c1',
        startUrl: [crawleeSeed],
      });
      expect(await crawlee.waitForExit(120_000), crawlee.tail()).toBe(0);

      const all = new Map([...reachable(model, site.origin, [model.seed(0)]), ...expectedScrapy]);
      const crawleeFetched = fetchesByIdentity(site.log.byFleet('crawlee'), site.origin);
      const overlap = [...crawleeFetched.keys()]
        .filter((id) => scrapyFetched.has(id))
        .map((id) => all.get(id));
      expect(overlap, 'pages both fleets fetched').toEqual([]);
      const missing = [...all.keys()]
        .filter((id) => !crawleeFetched.has(id) && !scrapyFetched.has(id))
        .map((id) => all.get(id));
      expect(missing, 'pages nobody fetched').toEqual([]);
      expect(duplicates(site.log.entries, site.origin), 'pages fetched twice').toEqual([]);
      expect(crawleeFetched.size).toBe(all.size - scrapyFetched.size);
      expect(crawleeFetched.size).toBeGreaterThan(10);
      // Crawlee fetched the #! links Scrapy had not as Scrapy 2.8 would have: ?_escaped_fragment_=
      expect(site.log.byFleet('crawlee').some((e) => e.path.includes('_escaped_fragment_=tab%3D'))).toBe(
        true,
      );
      expect(site.log.entries.every((e) => e.status === 200)).toBe(true);

      // The seen-set holds exactly the scrapy-redis fingerprints of every fetched page, except Scrapy's start URL
      // (scrapy-redis makes start requests dont_filter=True, so they never reach the dupefilter).
      const members = await harness.redis.smembers(`${spider}:dupefilter`);
      const expectedMembers = [...all.keys()].filter((id) => id !== pageIdentity(scrapySeed));
      expect(members.sort()).toEqual(expectedMembers.sort());
    } finally {
      await site.close();
    }
  });
});

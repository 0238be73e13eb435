import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markSeenByScrapy, SiteModel, startSiteServer } from '../src/index.js';
import { Harness } from './helpers/harness.js';

// A Scrapy 2.8 worker has scheduled some #! URLs (scrapy-redis's dupefilter holds their fingerprints, computed on
// the rewritten ?_escaped_fragment_= URL). A Crawlee worker given the same URLs as start requests, with
// withScrapyFingerprint({ recipe: 'scrapy-redis', scrapyRequest: '<=2.12' }), must find them all seen.
const harness = new Harness();
beforeAll(() => harness.start());
afterEach(() => harness.stopProcesses());
afterAll(() => harness.stop());

describe('#! start URLs already seen by Scrapy 2.8', () => {
  // Links are rewritten to the ?_escaped_fragment_= URL by the harness's worker before they are fingerprinted; start
  // URLs go through withScrapyFingerprint's scrapyRequest option (computeKey passes it on to fingerprint()).
  it('Crawlee fetches none of them', async () => {
    const site = await startSiteServer(new SiteModel({ pagesPerSection: 10 }), {
      accessLogFile: `${harness.logDir}/access-d.jsonl`,
    });
    try {
      const spider = harness.name('interop-d');
      const urls = ['/b/3#!tab=1', '/a/5?x=1#!tab=2', '/b/7#!'].map((p) => site.origin + p);
      expect(markSeenByScrapy(harness.setup, harness.server.url, `${spider}:dupefilter`, urls)).toEqual([
        false,
        false,
        false,
      ]);

      const crawlee = harness.crawlee({
        queue: harness.name('rq-d'),
        spider,
        worker: 'c1',
        startUrl: urls,
        idleSecs: 2,
      });
      expect(await crawlee.waitForExit(120_000), crawlee.tail()).toBe(0);
      expect(
        site.log.entries.map((e) => e.path),
        'pages Crawlee fetched',
      ).toEqual([]);
      expect(await harness.redis.scard(`${spider}:dupefilter`)).toBe(3);
    } finally {
      await site.close();
    }
  });
});

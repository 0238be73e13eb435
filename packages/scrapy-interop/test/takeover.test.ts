import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchesByIdentity, reachable, SiteModel, startSiteServer, type FleetProcess } from '../src/index.js';
import { duplicates, Harness, until } from './helpers/harness.js';
import { spawnTakeoverCli, spawnTakeoverScrapy, type TakeoverScrapyOptions } from './helpers/takeover.js';

// Issue 15: one crawl, two fleets. A real Scrapy 2.8 + vendored scrapy-redis crawl is stopped halfway (SIGTERM);
// `crawlee-redis takeover` moves its pending requests (<spider>:requests) into a crawlee-redis-queue queue; Crawlee
// workers on the same Redis (sharing <spider>:dupefilter) finish the crawl. By the site's access log every page is
// fetched exactly once across both fleets.
const harness = new Harness();
const extra: FleetProcess[] = [];
beforeAll(() => harness.start());
afterEach(async () => {
  await Promise.all(extra.splice(0).map((p) => p.stop()));
  await harness.stopProcesses();
});
afterAll(() => harness.stop());

interface Scenario {
  queueClass: TakeoverScrapyOptions['queueClass'];
  serializer: TakeoverScrapyOptions['serializer'];
  /** SIGKILL the takeover CLI after its second batch, then run it again. */
  killTakeover?: boolean;
}

async function frontierSize(key: string, queueClass: Scenario['queueClass']): Promise<number> {
  return queueClass === 'priority' ? harness.redis.zcard(key) : harness.redis.llen(key);
}

async function oneCrawlTwoFleets({ queueClass, serializer, killTakeover = false }: Scenario): Promise<void> {
  const model = new SiteModel({ pagesPerSection: 20 });
  const tag = `${queueClass}-${serializer}${killTakeover ? '-killed' : ''}`;
  const site = await startSiteServer(model, { delayMs: 40, accessLogFile: join(harness.logDir, `access-takeover-${tag}.jsonl`) });
  try {
    const spider = harness.name(`takeover-${tag}`);
    const queue = harness.name(`rq-takeover-${tag}`);
    const frontier = `${spider}:requests`;
    await harness.redis.lpush(`${spider}:start_urls`, JSON.stringify({ url: site.origin + model.seed(0) }));

    // 1. Scrapy crawls about a third of the site, then is stopped (SIGTERM: scrapy-redis keeps its frontier).
    const scrapy = spawnTakeoverScrapy({
      setup: harness.setup,
      redisUrl: harness.server.url,
      spider,
      worker: 's1',
      queueClass,
      serializer,
      logFile: join(harness.logDir, `scrapy-takeover-${tag}.log`),
    });
    extra.push(scrapy);
    await until(() => site.log.byFleet('scrapy').length >= 15, 90_000, 'Scrapy to fetch 15 pages');
    await scrapy.stop();
    const pending = await frontierSize(frontier, queueClass);
    expect(pending, `Scrapy left requests in ${frontier}`).toBeGreaterThan(3);
    const type = await harness.redis.type(frontier);
    expect(type).toBe(queueClass === 'priority' ? 'zset' : 'list');

    // 2. The takeover moves them into the queue, uniqueKeys = the fingerprints in Scrapy's dupefilter.
    const common = ['--from', frontier, '--queue-class', queueClass, '--serializer', serializer, '--fingerprint', 'scrapy-redis', '--scrapy-request', '<=2.12', '--redis', harness.server.url];
    if (killTakeover) {
      const slow = spawnTakeoverCli([queue, ...common, '--batch-size', '1', '--pause-ms', '400', '--progress'], join(harness.logDir, `takeover-killed-${tag}.log`));
      extra.push(slow);
      await slow.waitFor(/batch 2:/, 30_000);
      slow.child.kill('SIGKILL');
      expect(await slow.exited).toBe('SIGKILL');
      const left = await frontierSize(frontier, queueClass);
      expect(left, 'the killed takeover moved some, not all').toBeGreaterThan(0);
      expect(left).toBeLessThan(pending);
    }
    const cli = spawnTakeoverCli([queue, ...common, '--json'], join(harness.logDir, `takeover-${tag}.log`));
    extra.push(cli);
    expect(await cli.waitForExit(60_000), cli.tail()).toBe(0);
    const result = JSON.parse(cli.output.slice(cli.output.indexOf('{'))) as { moved: number; alreadyPresent: number; deadLettered: number };
    expect(result.deadLettered).toBe(0);
    if (!killTakeover) expect(result.moved).toBe(pending);
    expect(await harness.redis.exists(frontier), 'the frontier is empty').toBe(0);
    // (Read from the queue's keys: importing crawlee-redis-queue's dist into vitest here trips on its `timers` import.)
    const stats = async () => {
      const meta = await harness.redis.hgetall(`{crawlee:rq:${queue}}:meta`);
      const deadLetters = await harness.redis.hlen(`{crawlee:rq:${queue}}:dead`);
      return { total: Number(meta.total ?? 0), pending: Number(meta.pending ?? 0), handled: Number(meta.handled ?? 0), deadLetters };
    };
    // Nothing lost, nothing twice: the queue holds exactly the requests Scrapy had pending.
    expect(await stats()).toMatchObject({ total: pending, pending, handled: 0, deadLetters: 0 });

    // 3. Two Crawlee workers finish the crawl.
    const workers = [1, 2].map((i) => harness.crawlee({ queue, spider, worker: `c${i}`, startUrl: [] }));
    for (const w of workers) expect(await w.waitForExit(120_000), w.tail()).toBe(0);
    const after = await stats();
    expect(after.pending).toBe(0);
    expect(after.handled).toBe(after.total);

    const all = reachable(model, site.origin, [model.seed(0)]);
    const scrapyFetched = fetchesByIdentity(site.log.byFleet('scrapy'), site.origin);
    const crawleeFetched = fetchesByIdentity(site.log.byFleet('crawlee'), site.origin);
    expect(duplicates(site.log.entries, site.origin), 'pages fetched twice').toEqual([]);
    const missing = [...all.keys()].filter((id) => !scrapyFetched.has(id) && !crawleeFetched.has(id)).map((id) => all.get(id));
    expect(missing, 'pages nobody fetched').toEqual([]);
    expect(scrapyFetched.size + crawleeFetched.size).toBe(all.size);
    expect(crawleeFetched.size).toBeGreaterThanOrEqual(pending);
    expect(site.log.entries.every((e) => e.status === 200)).toBe(true);
  } finally {
    await site.close();
  }
}

describe('taking over a running scrapy-redis crawl', () => {
  it('PriorityQueue + pickle (scrapy-redis defaults): every page fetched exactly once across both fleets', () =>
    oneCrawlTwoFleets({ queueClass: 'priority', serializer: 'pickle' }));

  it('FifoQueue + JSON serializer: every page fetched exactly once across both fleets', () =>
    oneCrawlTwoFleets({ queueClass: 'fifo', serializer: 'json' }));

  it('a takeover SIGKILLed halfway and run again: nothing lost, nothing twice', () =>
    oneCrawlTwoFleets({ queueClass: 'priority', serializer: 'pickle', killTakeover: true }));
});

import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ScrapyStatsWriter, type ScrapyStatsOptions } from './scrapy-stats-writer.js';

/** The parts of a Crawlee HTTP or browser crawler the stats hook into (navigation hooks, pushData, run). */
interface HookableCrawler {
  preNavigationHooks?: Array<(context: { request: { method?: string } }) => unknown>;
  postNavigationHooks?: Array<(context: { response?: unknown }) => unknown>;
  pushData(data: unknown, dataset?: string): Promise<void>;
  run(...args: never[]): Promise<unknown>;
}

function statusOf(response: unknown): number | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const r = response as { statusCode?: unknown; status?: unknown };
  if (typeof r.statusCode === 'number') return r.statusCode; // got / http crawlers
  if (typeof r.status === 'function') return Number((r.status as () => number).call(response)); // playwright / puppeteer
  return undefined;
}

/**
 * Counts a crawler's downloads, responses and items into scrapy-redis' `<spider>:stats` hash (see
 * {@link ScrapyStatsWriter} for the fields). Hooks in through the crawler's own pre- and post-navigation hooks and
 * its `pushData` (so `context.pushData` counts too); every `crawler.run()` ends with the last write and
 * `finish_time` / `finish_reason`. For an HTTP crawler (Cheerio, JSDOM, Linkedom, Http) or a browser crawler.
 *
 * @param crawler - the crawler, before `run()`
 * @param options - Redis connection, stats key (e.g. `'myspider:stats'`), write interval
 * @returns the writer (call `close()` yourself only if the crawler never finishes its run)
 * @throws {@link InvalidOptionsError} for bad options or a crawler without navigation hooks
 *
 * @example
 * ```ts
 * attachScrapyStats(crawler, { redis, key: 'myspider:stats' });
 * await crawler.run();
 * ```
 */
export function attachScrapyStats(crawler: object, options: ScrapyStatsOptions): ScrapyStatsWriter {
  const writer = new ScrapyStatsWriter(options);
  const target = crawler as HookableCrawler;
  if (!Array.isArray(target.preNavigationHooks) || !Array.isArray(target.postNavigationHooks)) {
    throw new InvalidOptionsError('attachScrapyStats needs a Crawlee HTTP or browser crawler (one with navigation hooks)');
  }
  target.preNavigationHooks.push(({ request }) => writer.request(request.method ?? 'GET'));
  target.postNavigationHooks.push(({ response }) => {
    const status = statusOf(response);
    if (status !== undefined && Number.isFinite(status)) writer.response(status);
  });
  const pushData = target.pushData.bind(crawler);
  target.pushData = async (data, dataset) => {
    await pushData(data, dataset);
    writer.items(Array.isArray(data) ? data.length : 1);
  };
  const run = target.run.bind(crawler) as (...args: unknown[]) => Promise<unknown>;
  (target as unknown as { run: (...args: unknown[]) => Promise<unknown> }).run = async (...args) => {
    try {
      return await run(...args);
    } finally {
      await writer.close('finished');
    }
  };
  return writer;
}

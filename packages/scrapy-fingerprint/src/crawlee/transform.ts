import type { CrawleeRequestLike, ScrapyUniqueKeyOptions } from './options.js';
import { scrapyUniqueKey } from './unique-key.js';

/**
 * A `transformRequestFunction` for `enqueueLinks` that sets the Scrapy fingerprint as `uniqueKey` (after your own
 * transform, if given; a request your transform skips stays skipped, a `uniqueKey` it sets is kept).
 * @param options - recipe, `includeHeaders`, `keepFragments`, `dontFilter`
 * @param userTransform - your own transform, run first
 * @returns the combined transform
 */
export function fingerprintTransform<T extends CrawleeRequestLike>(
  options: ScrapyUniqueKeyOptions = {},
  userTransform?: (request: T) => T | false | null | undefined,
): (request: T) => T | false | null | undefined {
  return (request: T) => {
    const transformed = userTransform ? userTransform(request) : request;
    if (!transformed) return transformed;
    return { ...transformed, uniqueKey: scrapyUniqueKey(transformed, options) };
  };
}

import { checkOptionNames, UNIQUE_KEY_OPTIONS } from '../known-options.js';
import { ScrapyFingerprintError } from '../errors/scrapy-fingerprint-error.js';
import { checkFingerprintOptions } from '../scrapy/fingerprint.js';
import { strip } from '../w3lib/safe-chars.js';
import { crawleeLog } from './crawlee-log.js';
import type { CrawleeRequestLike, ScrapyUniqueKeyOptions } from './options.js';
import { scrapyUniqueKey } from './unique-key.js';

const HTTP_SCHEME = /^https?:/i;

/**
 * A `transformRequestFunction` for `enqueueLinks` that sets the Scrapy fingerprint as `uniqueKey` (after your own
 * transform, if given; a request your transform skips stays skipped, a `uniqueKey` it sets is kept).
 *
 * Crawlee calls the transform for every link of the page before its own same-hostname filter, so it also sees
 * `mailto:`, `javascript:`, `tel:` and other links no crawler fetches. The transform never throws for a link: a link
 * whose scheme is not `http` or `https`, or whose URL Scrapy's `Request()` rejects (missing scheme, bad port, bad IPv6
 * literal), is skipped (the transform returns `false`, and Crawlee reports it to `onSkippedRequest` with reason
 * `'filters'`), with one debug-level line through Crawlee's `log` per skipped link. Errors thrown by your own transform
 * are not caught.
 * @param options - recipe, `includeHeaders`, `keepFragments`, `dontFilter`
 * @param userTransform - your own transform, run first
 * @returns the combined transform
 * @throws {@link InvalidRequestError} at once (not per link) for an unknown recipe or malformed `includeHeaders`
 */
export function fingerprintTransform<T extends CrawleeRequestLike>(
  options: ScrapyUniqueKeyOptions = {},
  userTransform?: (request: T) => T | false | null | undefined,
): (request: T) => T | false | null | undefined {
  checkOptionNames('fingerprintTransform', options, UNIQUE_KEY_OPTIONS);
  checkFingerprintOptions(options);
  return (request: T) => {
    const transformed = userTransform ? userTransform(request) : request;
    if (!transformed) return transformed;
    if (typeof transformed.url !== 'string' || !HTTP_SCHEME.test(strip(transformed.url))) {
      return skip(transformed.url, 'not an http(s) URL');
    }
    try {
      return { ...transformed, uniqueKey: scrapyUniqueKey(transformed, options) };
    } catch (error) {
      if (!(error instanceof ScrapyFingerprintError)) throw error;
      return skip(transformed.url, error.message);
    }
  };
}

function skip(url: unknown, reason: string): false {
  crawleeLog()?.debug('fingerprintTransform: skipping a link Scrapy would not request', { url, reason });
  return false;
}

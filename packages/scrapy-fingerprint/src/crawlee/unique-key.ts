import { checkOptionNames, UNIQUE_KEY_OPTIONS } from '../known-options.js';
import { randomUUID } from 'node:crypto';
import { fingerprint } from '../scrapy/fingerprint.js';
import type { CrawleeRequestLike, ScrapyUniqueKeyOptions } from './options.js';

function wantsDontFilter(request: CrawleeRequestLike, option: ScrapyUniqueKeyOptions['dontFilter']): boolean {
  if (typeof option === 'function') return option(request);
  if (option !== undefined) return option;
  return request.userData?.dontFilter === true;
}

/**
 * The Scrapy fingerprint to use as a Crawlee `uniqueKey`, computed from url, method, payload and (optionally)
 * headers. An explicit `uniqueKey` on the request is returned unchanged. `keepFragments` defaults to the request's
 * own `keepUrlFragment`.
 * @param requestOptions - Crawlee `RequestOptions` (or a `Request`)
 * @param options - recipe, `includeHeaders`, `keepFragments`, `dontFilter`
 * @returns 40 lowercase hex characters (plus `:<uuid>` for a `dontFilter` request)
 * @throws {@link InvalidUrlError} for a URL Scrapy rejects (e.g. relative, or with a bad port)
 */
export function scrapyUniqueKey(requestOptions: CrawleeRequestLike, options: ScrapyUniqueKeyOptions = {}): string {
  checkOptionNames('scrapyUniqueKey', options, UNIQUE_KEY_OPTIONS);
  if (typeof requestOptions.uniqueKey === 'string' && requestOptions.uniqueKey !== '') return requestOptions.uniqueKey;
  return computeKey(requestOptions, options);
}

/** The fingerprint key, ignoring any uniqueKey already present. */
export function computeKey(request: CrawleeRequestLike, options: ScrapyUniqueKeyOptions): string {
  const fp = fingerprint(
    { url: request.url, method: request.method, payload: request.payload, headers: request.headers },
    {
      recipe: options.recipe,
      includeHeaders: options.includeHeaders,
      scrapyRequest: options.scrapyRequest,
      keepFragments: options.keepFragments ?? request.keepUrlFragment ?? false,
    },
  );
  return wantsDontFilter(request, options.dontFilter) ? `${fp}:${randomUUID()}` : fp;
}

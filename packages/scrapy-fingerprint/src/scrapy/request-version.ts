import { InvalidRequestError } from '../errors/invalid-request-error.js';

/**
 * Which Scrapy `Request()` built the requests whose fingerprints you must match: what it does to the URL before any
 * fingerprint reads `request.url`.
 * - `'2.13+'`: Scrapy 2.13 and later. `Request()` applies only w3lib's `safe_url_string`; a `#!frag` fragment is an
 *   ordinary fragment (dropped from the hashed URL unless `keepFragments`).
 * - `'<=2.12'`: Scrapy 2.12 and older (Debian 12 and Ubuntu 24.04 ship 2.8 and 2.11). `Request()` applies
 *   `scrapy.utils.url.escape_ajax` after `safe_url_string`: `#!frag` becomes the query argument
 *   `_escaped_fragment_=frag` (Google's retired AJAX crawling scheme), built by w3lib `add_or_replace_parameter`,
 *   i.e. stdlib `parse_qsl` + `urlencode`, which re-encodes the existing query (`?q=%FF` becomes `q=%EF%BF%BD`).
 * Only URLs with a fragment starting with `!` are affected.
 */
export type ScrapyRequestVersion = '2.13+' | '<=2.12';

/** The accepted {@link ScrapyRequestVersion} values. */
export const SCRAPY_REQUEST_VERSIONS: readonly ScrapyRequestVersion[] = ['2.13+', '<=2.12'];

/**
 * The `Request()` a recipe implies when `scrapyRequest` is not given, and a check of an explicit one.
 * `'scrapy-2.6'` (`request_fingerprint()`) was removed in Scrapy 2.12, whose `Request()` still rewrote `#!` URLs, so
 * it only exists with `'<=2.12'`.
 * @param recipe - the fingerprint recipe (already validated)
 * @param requested - the `scrapyRequest` option
 * @returns whether `escape_ajax` is applied
 * @throws {@link InvalidRequestError} for an unknown value, or `'2.13+'` with `'scrapy-2.6'`
 */
export function appliesEscapeAjax(recipe: string, requested: ScrapyRequestVersion | undefined): boolean {
  if (requested !== undefined && !SCRAPY_REQUEST_VERSIONS.includes(requested)) {
    throw new InvalidRequestError(
      'scrapyRequest',
      `unknown Scrapy Request version ${JSON.stringify(requested)}; use one of ${SCRAPY_REQUEST_VERSIONS.map((v) => `'${v}'`).join(', ')}`,
    );
  }
  if (recipe === 'scrapy-2.6') {
    if (requested === '2.13+') {
      throw new InvalidRequestError(
        'scrapyRequest',
        "recipe 'scrapy-2.6' (request_fingerprint) only exists in Scrapy 2.11 and older, whose Request() rewrites #! URLs; " +
          "leave scrapyRequest out (or pass '<=2.12'), or use recipe 'scrapy' for Scrapy 2.13+",
      );
    }
    return true;
  }
  return requested === '<=2.12';
}

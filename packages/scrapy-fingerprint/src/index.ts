/**
 * crawlee-scrapy-fingerprint: Scrapy's request fingerprint and w3lib's canonical URL, byte-exact, and the Crawlee
 * hooks that make a queue dedup the way a Scrapy dupefilter does. Only what users call is exported here; internals
 * for tests and sibling packages are behind `crawlee-scrapy-fingerprint/internal` (no compatibility promise).
 * @packageDocumentation
 */
export { canonicalizeUrl, type CanonicalizeUrlOptions } from './w3lib/canonicalize-url.js';
export { safeUrlString, type SafeUrlStringOptions } from './w3lib/safe-url-string.js';
export {
  fingerprint,
  fingerprintBytes,
  fingerprintDetails,
  FINGERPRINT_RECIPES,
  type FingerprintDetails,
  type FingerprintOptions,
  type FingerprintRecipe,
} from './scrapy/fingerprint.js';
export type { FingerprintRequest } from './scrapy/request.js';
export { SCRAPY_REQUEST_VERSIONS, type ScrapyRequestVersion } from './scrapy/request-version.js';
export type { HeadersInput, HeaderValue } from './scrapy/headers.js';
export * from './errors/index.js';
export { scrapyUniqueKey } from './crawlee/unique-key.js';
export { fingerprintTransform } from './crawlee/transform.js';
export { withScrapyFingerprint, type FingerprintableQueue } from './crawlee/with-scrapy-fingerprint.js';
export type { CrawleeRequestLike, ScrapyUniqueKeyOptions } from './crawlee/options.js';

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
export { buildScrapyRequest, type FingerprintRequest, type ScrapyRequest } from './scrapy/request.js';
export { SCRAPY_REQUEST_VERSIONS, type ScrapyRequestVersion } from './scrapy/request-version.js';
export type { HeadersInput, HeaderValue } from './scrapy/headers.js';
export {
  runConformanceCase,
  type ConformanceInput,
  type ConformanceOptions,
  type ConformanceOutput,
} from './conformance/run-case.js';
export * from './errors/index.js';
export { nameprep } from './idna/nameprep.js';
export { idnaEncode } from './idna/idna.js';
export { scrapyUniqueKey } from './crawlee/unique-key.js';
export { fingerprintTransform } from './crawlee/transform.js';
export {
  withScrapyFingerprint,
  UNIQUE_KEY_TRANSFORM,
  type FingerprintableQueue,
} from './crawlee/with-scrapy-fingerprint.js';
export type { CrawleeRequestLike, ScrapyUniqueKeyOptions } from './crawlee/options.js';

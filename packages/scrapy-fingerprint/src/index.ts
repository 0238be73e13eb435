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
export type { HeadersInput, HeaderValue } from './scrapy/headers.js';
export {
  runConformanceCase,
  type ConformanceInput,
  type ConformanceOutput,
} from './conformance/run-case.js';
export * from './errors/index.js';

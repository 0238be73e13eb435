/**
 * crawlee-scrapy-fingerprint/internal: building blocks for this repository's tests and sibling packages. Not part of
 * the public API: names and shapes may change in any release.
 * @packageDocumentation
 */
export { buildScrapyRequest, type ScrapyRequest } from './scrapy/request.js';
export { runConformanceCase, type ConformanceInput, type ConformanceOptions, type ConformanceOutput } from './conformance/run-case.js';
export { nameprep } from './idna/nameprep.js';
export { idnaEncode } from './idna/idna.js';
export {
  UNIQUE_KEY_SINK,
  UNIQUE_KEY_TRANSFORM,
  type UniqueKeySink,
  type UniqueKeyTransform,
} from '@crawlee-distributed/redis-kit/seam';

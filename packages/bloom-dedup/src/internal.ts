/**
 * crawlee-bloom-dedup/internal: building blocks for this repository's tests and sibling packages. Not part of the
 * public API: names and shapes may change in any release.
 * @packageDocumentation
 */
export { MAX_MEMORY_BITS } from './memory/memory-bloom-dedup-store.js';
export { DEFAULT_CONNECT_TIMEOUT_SECS } from './redis/connection.js';
export { bloomKeys, type BloomKeys } from './redis/bloom-keys.js';
export { hashTagOf, slotOf } from '@crawlee-distributed/redis-kit';
export { MAX_REDIS_BLOCK_BITS, MAX_BLOCKS } from './bloom/parameters.js';
export { INDEX_SCHEME, bitOffsets, bitPosition, digestBytes, digestHex, isSha1Hex } from './bloom/bit-indexes.js';
export { linkDedupStatistics } from './queue/dedup-statistics.js';
// The enqueue-filter and uniqueKey seams, declared once in the private kit (bundled at build time).
export * from '@crawlee-distributed/redis-kit/seam';

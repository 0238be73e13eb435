/**
 * crawlee-bloom-dedup: dedup stores for Crawlee (in-memory Bloom, Redis Bloom, Redis set) and `withDedup`, which
 * filters a queue's adds through one. Only what users call is exported here; internals for tests and sibling
 * packages are behind `crawlee-bloom-dedup/internal` (no compatibility promise).
 * @packageDocumentation
 */
export type { DedupStats, DedupStore } from './dedup-store.js';
export { MemoryBloomDedupStore, DEFAULT_MAX_MEMORY_FILTER_BYTES, type MemoryBloomDedupStoreOptions } from './memory/memory-bloom-dedup-store.js';
export { FingerprintHashing } from './memory/fingerprint-hashing.js';
export { FingerprintBloomFilter } from './memory/fingerprint-bloom-filter.js';
export { DEFAULT_SNAPSHOT_KEY, type SnapshotTarget } from './memory/snapshot.js';
export { RedisBloomDedupStore, type RedisBloomDedupStoreOptions } from './redis/redis-bloom-dedup-store.js';
export { RedisSetDedupStore, type RedisSetDedupStoreOptions } from './redis/redis-set-dedup-store.js';
export type { RedisConnection } from './redis/connection.js';
export {
  bloomParameters,
  estimatedFalsePositiveRate,
  expectedFillRatio,
  DEFAULT_MAX_FILTER_BYTES,
  type BloomParameters,
  type BloomSizing,
} from './bloom/parameters.js';
export {
  withDedup,
  reportDedupTo,
  DEDUP_STATE,
  type DedupQueueState,
  type DedupRequest,
  type WithDedupOptions,
} from './queue/with-dedup.js';
export { DEDUP_FILTERED_STAT } from './queue/dedup-statistics.js';
export * from './errors/index.js';
export { ForgetUnsupportedError } from './errors/forget-unsupported-error.js';
export type { FilterTooLargeDetail } from './errors/filter-too-large-error.js';
export { PACKAGE_VERSION } from './version.js';

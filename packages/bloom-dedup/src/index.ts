export type { DedupStats, DedupStore } from './dedup-store.js';
export { MemoryBloomDedupStore, MAX_MEMORY_BITS, DEFAULT_MAX_MEMORY_FILTER_BYTES, type MemoryBloomDedupStoreOptions } from './memory/memory-bloom-dedup-store.js';
export { FingerprintHashing } from './memory/fingerprint-hashing.js';
export { DEFAULT_SNAPSHOT_KEY, type SnapshotTarget } from './memory/snapshot.js';
export { RedisBloomDedupStore, type RedisBloomDedupStoreOptions } from './redis/redis-bloom-dedup-store.js';
export { RedisSetDedupStore, type RedisSetDedupStoreOptions } from './redis/redis-set-dedup-store.js';
export { DEFAULT_CONNECT_TIMEOUT_SECS, type RedisConnection } from './redis/connection.js';
export { bloomKeys, type BloomKeys } from './redis/bloom-keys.js';
export { hashTagOf, slotOf } from '@crawlee-distributed/redis-kit';
export {
  bloomParameters,
  estimatedFalsePositiveRate,
  expectedFillRatio,
  MAX_REDIS_BLOCK_BITS,
  DEFAULT_MAX_FILTER_BYTES,
  MAX_BLOCKS,
  type BloomParameters,
  type BloomSizing,
} from './bloom/parameters.js';
export { INDEX_SCHEME, bitOffsets, bitPosition, digestBytes, digestHex, isSha1Hex } from './bloom/bit-indexes.js';
export {
  withDedup,
  reportDedupTo,
  DEDUP_STATE,
  type DedupQueueState,
  type DedupRequest,
  type WithDedupOptions,
} from './queue/with-dedup.js';
export { DEDUP_FILTERED_STAT, linkDedupStatistics } from './queue/dedup-statistics.js';
export * from './enqueue-filter.js';
export * from './errors/index.js';
export type { FilterTooLargeDetail } from './errors/filter-too-large-error.js';
export { PACKAGE_VERSION } from './version.js';

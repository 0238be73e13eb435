import type { KnownOptions } from '@crawlee-distributed/redis-kit';
import type { MEMORY_BLOOM_OPTIONS, REDIS_BLOOM_OPTIONS, REDIS_SET_OPTIONS } from './known-store-options.js';
import type { MemoryBloomDedupStoreOptions } from './memory/memory-bloom-dedup-store.js';
import type { RedisBloomDedupStoreOptions } from './redis/redis-bloom-dedup-store.js';
import type { RedisSetDedupStoreOptions } from './redis/redis-set-dedup-store.js';

// Compile-time only: each option-name table in known-store-options.ts has exactly its store's option names. A name
// added to an options type and not to its table (or the other way round) fails `tsc` here. Nothing imports this
// file, so the tables need not import the types of the stores that use them (that import ran in a circle).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

export type RedisBloomNamesMatch = Holds<Same<keyof typeof REDIS_BLOOM_OPTIONS, keyof KnownOptions<RedisBloomDedupStoreOptions>>>;
export type RedisSetNamesMatch = Holds<Same<keyof typeof REDIS_SET_OPTIONS, keyof KnownOptions<RedisSetDedupStoreOptions>>>;
export type MemoryBloomNamesMatch = Holds<Same<keyof typeof MEMORY_BLOOM_OPTIONS, keyof KnownOptions<MemoryBloomDedupStoreOptions>>>;

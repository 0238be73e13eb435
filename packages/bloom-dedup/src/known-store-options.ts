import { unknownOptionProblem, type KnownOptions } from '@crawlee-distributed/redis-kit';
import { InvalidDedupOptionsError } from './errors/invalid-dedup-options-error.js';
import type { MemoryBloomDedupStoreOptions } from './memory/memory-bloom-dedup-store.js';
import type { RedisBloomDedupStoreOptions } from './redis/redis-bloom-options.js';
import type { RedisSetDedupStoreOptions } from './redis/redis-set-dedup-store.js';

/** The option names of each store (typed: a name added to an options type must be added here, or this fails to
 * compile). */
export const REDIS_BLOOM_OPTIONS: KnownOptions<RedisBloomDedupStoreOptions> = {
  redis: true, key: true, capacity: true, errorRate: true, blocks: true, maxFilterBytes: true, recipe: true, preallocate: true, maxBatch: true, connectTimeoutSecs: true, split: true,
};
export const REDIS_SET_OPTIONS: KnownOptions<RedisSetDedupStoreOptions> = { redis: true, key: true, maxBatch: true, connectTimeoutSecs: true, split: true };
export const MEMORY_BLOOM_OPTIONS: KnownOptions<MemoryBloomDedupStoreOptions> = { capacity: true, errorRate: true, snapshot: true, maxFilterBytes: true, autoSave: true };

/**
 * Rejects an option name a store does not take (`maxbatch`, `autosave`): silently dropped, the store would run with
 * the default, which for a filter's sizing or a snapshot is a mistake found only at the end of a crawl.
 * @param where - the store's name, e.g. `RedisBloomDedupStore`
 * @param options - the options given
 * @param known - the names the store takes
 * @throws {@link InvalidDedupOptionsError} naming the unknown key and the nearest known one
 */
export function checkStoreOptionNames<T>(where: string, options: unknown, known: KnownOptions<T>): void {
  const problem = unknownOptionProblem(`${where} options`, options, known);
  if (problem !== undefined) throw new InvalidDedupOptionsError(problem);
}

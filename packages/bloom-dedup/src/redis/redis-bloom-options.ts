import type { RedisConnection } from './connection.js';

/** Options of {@link RedisBloomDedupStore} (`FilterTooLargeError` and `RedisUnreachableError` are this package's errors). */
export interface RedisBloomDedupStoreOptions {
  /** ioredis `Redis` or `Cluster` (not closed by the store), or a URL (the store opens and closes its own connection). */
  redis: RedisConnection | string;
  /** Base key; the filter lives at `{key}:bits` / `{key}:meta` (see README "Key layout"). */
  key: string;
  /** Items the filter is sized for; a positive integer. */
  capacity: number;
  /** Target false-positive rate at capacity, 0 \< errorRate \< 1. */
  errorRate: number;
  /** Number of blocks (each at most 2^32 bits). @defaultValue the fewest that fit */
  blocks?: number;
  /**
   * Largest total filter size accepted, in bytes (all blocks together; preallocation makes Redis hold all of it).
   * A larger filter throws {@link FilterTooLargeError} in the constructor, before Redis is touched.
   * @defaultValue 16 GiB ({@link DEFAULT_MAX_FILTER_BYTES}); 1e9 keys at p = 1e-6 take about 3.6 GB
   */
  maxFilterBytes?: number;
  /** Fingerprint recipe of the keys (e.g. 'scrapy'), stored with the filter and checked on reopen when both know it. */
  recipe?: string;
  /** Allocate every block's full string when opening (predictable memory). @defaultValue true */
  preallocate?: boolean;
  /** Keys per script call; larger batches are split. 1 to 50,000. @defaultValue 5000 */
  maxBatch?: number;
  /**
   * Bound on the first connection when `redis` is a URL, in seconds: a refused or silent Redis rejects `open()` (and
   * the first call) with {@link RedisUnreachableError} instead of retrying forever; the connection is closed. Later
   * disconnects are retried by ioredis as usual. Ignored for a given client.
   * @defaultValue 10
   */
  connectTimeoutSecs?: number;
  /**
   * Whether the filter may be split into one part per shard when it is attached to a sharded queue on a Cluster (so
   * each shard's add script runs its part atomically). With `false`, `withDedup` filters in front of such a queue.
   * @defaultValue true
   */
  split?: boolean;
}

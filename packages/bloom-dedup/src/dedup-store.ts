/** Numbers a store reports; Redis stores read the shared totals from Redis, so every process sees the fleet's numbers. */
export interface DedupStats {
  /** Keys found new (and recorded) so far. */
  itemsAdded: number;
  /** Requests a `withDedup` wrapper (or a queue script) rejected as already seen. */
  filtered: number;
  /** Fraction of the filter's bits that are set (Bloom: expected value from `itemsAdded`; exact set: 0). */
  fillRatio: number;
  /** Estimated current false-positive rate, (1 - e^(-k n / m))^k for a Bloom filter; 0 for an exact set. */
  estimatedFalsePositiveRate: number;
  /** Bytes the store's data uses (Bloom: the bit arrays; Redis set: `MEMORY USAGE`). */
  bytesUsed: number;
  /** Items the store is sized for (Bloom only). */
  capacity?: number;
  /** Target false-positive rate at capacity (Bloom only). */
  errorRate?: number;
  /** Total bits (Bloom only). */
  bits?: number;
  /** Bits set per key (Bloom only). */
  hashes?: number;
  /** Blocks the filter is split into (Redis Bloom only; a split store: the sum over its parts). */
  blocks?: number;
  /** Parts a Redis store is split into (attached to a sharded queue on a Cluster; see the README, "On a sharded
   *  queue"); absent when unsplit. The counts, bytes and bits above are then sums over the parts. */
  parts?: number;
}

/**
 * A "seen" set of dedup keys (fingerprints or uniqueKeys). Batched and async.
 */
export interface DedupStore {
  /**
   * Records the keys and tells, per key, whether it was new. Atomic across every client of the same store:
   * of several clients adding one key at once, exactly one is told `true`. A key repeated inside the batch is
   * new at most once.
   * @param keys - dedup keys
   * @returns one boolean per key, `true` = was new
   */
  add(keys: readonly string[]): Promise<boolean[]>;
  /**
   * Reads only.
   * @param keys - dedup keys
   * @returns one boolean per key, `true` = (probably, for a Bloom filter) seen
   */
  has(keys: readonly string[]): Promise<boolean[]>;
  /**
   * Removes the keys, so they read as new again (a request that failed for good can be retried by a later run).
   * Optional, so stores written before it keep working; `withDedup({ forgetFailed: true })` refuses a store without it.
   * Atomic per call on the Redis set store. A Bloom filter cannot delete a key: its stores implement `forget` by
   * rejecting with {@link ForgetUnsupportedError} (and say `canForget: false`).
   * @param keys - dedup keys
   * @returns one boolean per key, `true` = it was in the store (and is gone now)
   */
  forget?(keys: readonly string[]): Promise<boolean[]>;
  /**
   * Whether {@link DedupStore.forget} can succeed. `withDedup` reads it to choose how it filters in front of a queue
   * that is not in Redis (claim first and forget on a failed enqueue, or check first). @defaultValue true when the
   * store has a `forget` method
   */
  readonly canForget?: boolean;
  /** Current numbers (see {@link DedupStats}). */
  stats(): Promise<DedupStats>;
  /**
   * Adds to the shared "filtered" counter (called by `withDedup` when it filters in front of a queue).
   * @param count - number of requests filtered
   */
  recordFiltered(count: number): Promise<void>;
  /** Releases what the store opened (a connection it created itself, timers). Idempotent. */
  close(): Promise<void>;
}

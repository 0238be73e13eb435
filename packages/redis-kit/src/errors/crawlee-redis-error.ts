/**
 * Base class of every error the Redis packages of crawlee-distributed throw (`crawlee-redis-queue`'s
 * `RedisQueueError`, `crawlee-bloom-dedup`'s `DedupError` and the shared {@link RedisUnreachableError}). `code` is
 * stable and meant for programs: an ESM and a CJS copy of a package are two classes, so `instanceof` can fail where
 * `code` does not.
 */
export class CrawleeRedisError extends Error {
  /** Stable machine-readable code, e.g. `'REDIS_UNREACHABLE'`. */
  readonly code: string;

  /**
   * @param code - stable machine-readable code
   * @param message - what happened and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

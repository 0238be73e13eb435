import { DistributedCheerioError } from './distributed-cheerio-error.js';

/**
 * Nothing usable answers at the Redis URL: the connection timed out or was closed without an answer, or it was
 * refused where this run must not start a private `redis-server` (`--join`, a Redis on another host).
 */
export class RedisUnreachableError extends DistributedCheerioError {
  /**
   * @param url - the Redis URL, credentials masked
   * @param why - what the connection attempt saw (e.g. `connection refused`, `no answer within 1.5 s`)
   * @param advice - what to do
   */
  constructor(url: string, why: string, advice: string, options?: ErrorOptions) {
    super('E_REDIS_UNREACHABLE', `Nothing answers at ${url} (${why}). ${advice}`, options);
  }
}

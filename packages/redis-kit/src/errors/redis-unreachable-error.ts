import { maskRedisUrl } from '../url/mask-redis-url.js';
import { CrawleeRedisError } from './crawlee-redis-error.js';

/**
 * The first connection to a Redis URL did not become ready within `connectTimeoutSecs` (refused, silent, wrong
 * host, bad TLS...). The connection that was created is closed, so it stops retrying; nothing was written.
 * Code `'REDIS_UNREACHABLE'`.
 */
export class RedisUnreachableError extends CrawleeRedisError {
  /** The Redis URL that could not be reached, credentials masked. */
  readonly url: string;

  /**
   * @param url - the Redis URL (credentials are masked here, whatever the caller passes)
   * @param timeoutSecs - how long the first connect was given, in seconds
   * @param options - standard `ErrorOptions` (`cause`: the last connection error, when there was one)
   */
  constructor(url: string, timeoutSecs: number, options?: ErrorOptions) {
    const masked = maskRedisUrl(url);
    const detail = options?.cause instanceof Error ? ` (last error: ${options.cause.message})` : '';
    super(
      'REDIS_UNREACHABLE',
      `cannot connect to Redis at ${masked} within connectTimeoutSecs = ${timeoutSecs} s${detail}. Start Redis ` +
        '(e.g. `redis-server --port 6379` or `docker run -d -p 6379:6379 redis:7`), or pass the right URL in the ' +
        '`redis` option / REDIS_URL; raise `connectTimeoutSecs` if Redis is slow to come up.',
      options,
    );
    this.url = masked;
  }
}

import { maskRedisUrl } from '../url/mask-redis-url.js';
import { CrawleeRedisError } from './crawlee-redis-error.js';

/** Options of {@link RedisUnreachableError}: `cause` and which budget ran out. */
export interface RedisUnreachableErrorOptions extends ErrorOptions {
  /** True when the connection had been ready and was lost: `timeoutSecs` is then `reconnectTimeoutSecs`, the
   * budget for getting it back. @defaultValue false (the first connect, `connectTimeoutSecs`) */
  afterConnect?: boolean;
}

/**
 * Redis cannot be reached: the first connection to a Redis URL did not become ready within `connectTimeoutSecs`
 * (refused, silent, wrong host, bad TLS...), or a connection that was ready was lost and did not come back within
 * `reconnectTimeoutSecs` (`afterConnect: true`: Redis stopped for good, or the network to it is gone). A connection
 * the package created is closed, so it stops retrying and no longer keeps the process alive. Code
 * `'REDIS_UNREACHABLE'`.
 */
export class RedisUnreachableError extends CrawleeRedisError {
  /** The Redis URL that could not be reached, credentials masked. */
  readonly url: string;
  /** True when the connection had been ready and was lost (the reconnect budget ran out). */
  readonly afterConnect: boolean;

  /**
   * @param url - the Redis URL (credentials are masked here, whatever the caller passes)
   * @param timeoutSecs - how long the first connect (or, with `afterConnect`, the reconnect) was given, in seconds
   * @param options - `cause` (the last connection error, when there was one) and `afterConnect`
   */
  constructor(url: string, timeoutSecs: number, options?: RedisUnreachableErrorOptions) {
    const masked = maskRedisUrl(url);
    const detail = options?.cause instanceof Error ? ` (last error: ${options.cause.message})` : '';
    const afterConnect = options?.afterConnect === true;
    super(
      'REDIS_UNREACHABLE',
      afterConnect
        ? `lost the connection to Redis at ${masked} and it did not come back within reconnectTimeoutSecs = ${timeoutSecs} s${detail}. ` +
            'Check that Redis is running there and reachable from this machine, then start the workers again (requests ' +
            'they had locked return to the queue when their locks expire); raise `reconnectTimeoutSecs` to wait through ' +
            'longer restarts.'
        : `cannot connect to Redis at ${masked} within connectTimeoutSecs = ${timeoutSecs} s${detail}. Start Redis ` +
            '(e.g. `redis-server --port 6379` or `docker run -d -p 6379:6379 redis:7`), or pass the right URL in the ' +
            '`redis` option / REDIS_URL; raise `connectTimeoutSecs` if Redis is slow to come up.',
      options,
    );
    this.url = masked;
    this.afterConnect = afterConnect;
  }
}

import { RedisQueueError } from './redis-queue-error.js';

/** The first connection to Redis did not succeed within `connectTimeoutSecs`; the connection was closed. */
export class RedisUnreachableError extends RedisQueueError {
  /** The Redis URL (password removed) that could not be reached. */
  readonly url: string;

  /**
   * @param url - the Redis URL, password removed
   * @param timeoutSecs - how long the first connect was given, in seconds
   * @param options - standard `ErrorOptions` (`cause`: the last connection error, when there was one)
   */
  constructor(url: string, timeoutSecs: number, options?: ErrorOptions) {
    const detail = options?.cause instanceof Error ? ` (last error: ${options.cause.message})` : '';
    super(
      'REDIS_UNREACHABLE',
      `cannot connect to Redis at ${url} within ${timeoutSecs} s${detail}. Start Redis (e.g. \`redis-server --port 6379\` ` +
        'or `docker run -d -p 6379:6379 redis:7`), or pass the right URL in the `redis` option / REDIS_URL; ' +
        'raise `connectTimeoutSecs` if Redis is slow to come up.',
      options,
    );
    this.url = url;
  }
}

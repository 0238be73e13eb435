import { DedupError } from './dedup-error.js';

/**
 * The store could not make its first connection to the Redis URL it was given (refused, timed out, or an error
 * before the connection was ready). The connection it created is closed; nothing was written.
 */
export class RedisUnreachableError extends DedupError {
  /** The URL, with any password masked. */
  readonly url: string;

  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super(
      'REDIS_UNREACHABLE',
      `Could not connect to Redis at ${url}: ${reason}. Check the URL, or start Redis there ` +
        `(e.g. \`redis-server --port <port>\` or \`docker run -p 6379:6379 redis:7\`), then open the store again.`,
      options,
    );
    this.url = url;
  }
}

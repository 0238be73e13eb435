import { maskRedisUrl } from '../url/mask-redis-url.js';
import { CrawleeRedisError } from './crawlee-redis-error.js';

/**
 * Redis refused to `SELECT` the database of the URL (`ERR DB index is out of range`). Never a fallback to
 * database 0: the connection is closed before any command runs, nothing was written. Code `'REDIS_DB_INDEX'`.
 */
export class RedisDatabaseError extends CrawleeRedisError {
  /** The Redis URL, credentials masked. */
  readonly url: string;

  /**
   * @param url - the Redis URL (masked here)
   * @param reply - the server's error reply
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(url: string, reply: string, options?: ErrorOptions) {
    const masked = maskRedisUrl(url);
    super(
      'REDIS_DB_INDEX',
      `Redis at ${masked} refused the database of the URL (${reply}). Use a database index below the server's ` +
        '`databases` setting (16 by default: /0 to /15), or drop the /N path to use database 0. Redis Cluster ' +
        'has database 0 only.',
      options,
    );
    this.url = masked;
  }
}

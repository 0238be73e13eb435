import { maskRedisUrl } from '../url/mask-redis-url.js';
import { CrawleeRedisError } from './crawlee-redis-error.js';

/**
 * Redis answered the first connect and refused the credentials: `NOAUTH` (the server needs a password and none
 * was given) or `WRONGPASS` (wrong user name or password, or the user is disabled). Never retried: a password
 * does not become right by waiting. The connection is closed; nothing was written. Code `'REDIS_AUTH'`.
 */
export class RedisAuthError extends CrawleeRedisError {
  /** The Redis URL, credentials masked. */
  readonly url: string;
  /** `'NOAUTH'` or `'WRONGPASS'`. */
  readonly reply: 'NOAUTH' | 'WRONGPASS';

  /**
   * @param url - the Redis URL (masked here, whatever the caller passes)
   * @param reply - the server's error reply (it never contains the password)
   * @param options - standard `ErrorOptions` (`cause`: the ioredis error)
   */
  constructor(url: string, reply: string, options?: ErrorOptions) {
    const masked = maskRedisUrl(url);
    const missing = reply.startsWith('NOAUTH');
    super(
      'REDIS_AUTH',
      `Redis at ${masked} ${missing ? 'requires a password and none was given' : 'refused the user name or password'} ` +
        `(${missing ? 'NOAUTH' : 'WRONGPASS'}). Put the credentials in the URL, redis://USER:PASSWORD@host:port ` +
        '(redis://:PASSWORD@host:port for the default user), preferably from an environment variable such as ' +
        'REDIS_URL, or pass `redisOptions: { username, password }`.',
      options,
    );
    this.url = masked;
    this.reply = missing ? 'NOAUTH' : 'WRONGPASS';
  }
}

import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** Redis answered and refused the credentials (`NOAUTH`: none given; `WRONGPASS`: wrong user or password). */
export class RedisAuthError extends DistributedCheerioError {
  /**
   * @param url - the Redis URL, credentials masked
   * @param reply - the server's reply (never contains the password)
   */
  constructor(url: string, reply: string) {
    const missing = reply.startsWith('NOAUTH');
    super(
      'E_REDIS_AUTH',
      `Redis at ${url} ${missing ? 'requires a password' : 'refused the user name or password'} (${reply.split(' ')[0]}). ` +
        'Put the credentials in the URL, redis://USER:PASSWORD@host:port (or redis://:PASSWORD@host:port for the default ' +
        'user), preferably through REDIS_URL so they do not show in `ps`. Nothing was started.',
    );
  }
}

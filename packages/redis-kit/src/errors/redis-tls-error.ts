import { maskRedisUrl } from '../url/mask-redis-url.js';
import { CrawleeRedisError } from './crawlee-redis-error.js';

/**
 * The TLS part of the first connect failed: the server's certificate is not trusted (self-signed, another CA,
 * wrong host name), `rediss://` points at a port that does not speak TLS, or `redis://` at one that only speaks
 * TLS. Never retried as plain text. The connection is closed; nothing was written. Code `'REDIS_TLS'`.
 */
export class RedisTlsError extends CrawleeRedisError {
  /** The Redis URL, credentials masked. */
  readonly url: string;

  /**
   * @param url - the Redis URL (masked here)
   * @param detail - what went wrong, e.g. `SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain`
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(url: string, detail: string, options?: ErrorOptions) {
    const masked = maskRedisUrl(url);
    super(
      'REDIS_TLS',
      `TLS to Redis at ${masked} failed: ${detail}. For a server certificate signed by your own CA pass ` +
        "`redisOptions: { tls: { ca: readFileSync('ca.crt') } }` (never `rejectUnauthorized: false` outside a test); " +
        'use rediss:// only for a TLS port (`tls-port`) and redis:// only for a plain one.',
      options,
    );
    this.url = masked;
  }
}

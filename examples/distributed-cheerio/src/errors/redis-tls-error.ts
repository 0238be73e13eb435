import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** The TLS connection to Redis failed: no TLS handshake, an untrusted or mismatched certificate, or TLS on a plain port. */
export class RedisTlsError extends DistributedCheerioError {
  /**
   * @param url - the Redis URL, credentials masked
   * @param why - what failed
   */
  constructor(url: string, why: string, options?: ErrorOptions) {
    super(
      'E_REDIS_TLS',
      `TLS connection to Redis at ${url} failed (${why}). rediss:// needs a Redis with TLS on that port (tls-port) and a ` +
        'certificate Node trusts (NODE_EXTRA_CA_CERTS=ca.pem for a private CA); for a plain Redis use redis://. ' +
        'Nothing was started.',
      options,
    );
  }
}

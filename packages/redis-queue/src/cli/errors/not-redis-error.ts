/** Something listens at the --redis address and answered, but not in Redis's protocol (an HTTP server, say). Exit 1. */
export class NotRedisError extends Error {
  /** @param maskedUrl - the URL, credentials masked */
  constructor(maskedUrl: string) {
    super(`${maskedUrl} answered, but not like a Redis server (is it the right port?); give the Redis URL with --redis URL or REDIS_URL`);
    this.name = 'NotRedisError';
  }
}

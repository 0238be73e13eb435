/** The Redis the run must use (named with `--join`) does not answer. */
export class RedisUnreachableError extends Error {
  readonly code = 'E_REDIS_UNREACHABLE';

  constructor(url: string, options?: { cause?: unknown }) {
    super(
      `Nothing answers at ${url}. Start Redis there, or drop --join to let this run start its own redis-server ` +
        '(or crawl in one process when redis-server is not installed).',
      options,
    );
    this.name = 'RedisUnreachableError';
  }
}

/** How to get a Redis on this machine, said in every failure that needs one. */
export const INSTALL_HINT =
  'Install one with `apt-get install -y redis-server` (Debian/Ubuntu) or `brew install redis` (macOS), ' +
  'or point REDIS_URL at a running server (e.g. REDIS_URL=redis://127.0.0.1:6379). ' +
  'REDIS_SERVER_BIN / REDIS_CLI_BIN select other binaries.';

/** Thrown when no Redis answers and none can be started; tests must fail with it, never skip. */
export class RedisUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`No Redis for the tests: ${reason}. ${INSTALL_HINT}`, options);
    this.name = 'RedisUnavailableError';
  }
}

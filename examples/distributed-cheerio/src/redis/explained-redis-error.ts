/**
 * The Redis packages' typed connection errors (crawlee-redis-queue, crawlee-bloom-dedup), and the queue's refusal of
 * another shard layout (two seeding runs racing past the up-front check), say what was refused and what to do: the CLI prints them like its own errors, without a stack trace. Matched by their stable `code`, not by
 * `instanceof`: each package bundles its own copy of the classes.
 */
const EXPLAINED_CODES = new Set(['REDIS_AUTH', 'REDIS_PERMISSION', 'REDIS_DB_INDEX', 'REDIS_TLS', 'REDIS_UNREACHABLE', 'SHARD_LAYOUT_MISMATCH', 'KEY_TYPE', 'QUEUE_MISSING']);

/** A script stopped by the user's ACL (Redis 7 reply inside EVALSHA; the packages may report it as a script error). */
const SCRIPT_ACL_DENIAL = /can't run this command or subcommand script|NOPERM/;

/**
 * The first error in `error`'s cause chain that is one of those typed Redis errors.
 *
 * @param error - anything thrown
 * @returns that error, or undefined
 */
export function explainedRedisError(error: unknown): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && EXPLAINED_CODES.has(code)) return e;
    // A command of the runner's own (not through the packages, which type it as KeyTypeError) on a key of another type.
    if (/\bWRONGTYPE\b/.test(e.message)) {
      const args = (e as Error & { command?: { args?: unknown[] } }).command?.args;
      const key = typeof args?.[0] === 'string' ? args[0] : undefined;
      return new Error(
        `${key === undefined ? 'a key of this crawl' : `Redis key ${key}`} holds another type than the crawl expects (WRONGTYPE): ` +
          `something else wrote it. Inspect it (redis-cli TYPE ${key ?? '<key>'}), then delete it or crawl under another --queue name or key prefix.`,
      );
    }
    if (code === 'REDIS_SCRIPT_ERROR' && SCRIPT_ACL_DENIAL.test(e.message)) {
      return new Error(
        `${e.message} Redis's ACL refuses a command one of the queue's scripts runs (TIME, for example): allow the ` +
          'commands the crawl needs (see "ACL for a least-privilege worker" in docs/security.md of crawlee-redis-queue), or ' +
          'connect as another user.',
      );
    }
  }
  return undefined;
}

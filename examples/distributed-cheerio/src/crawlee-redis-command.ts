/**
 * The one place that spells a `crawlee-redis` command line for a message or the summary. `npm ci` links the
 * package's committed bin (`packages/redis-queue/bin/crawlee-redis.js`), so `npx --no crawlee-redis` runs it from the
 * repository root; `--no` makes npx fail rather than download a package of that name from the registry.
 */

/** How the CLI is started, from the repository root. */
export const CRAWLEE_REDIS = 'npx --no crawlee-redis';

/** A shell word: quoted when it holds anything but plain URL/name characters (a masked `***` would glob). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A `crawlee-redis` command line that reaches the Redis the run used.
 *
 * @param command - the command and its own arguments (`['drop', 'my-queue']`)
 * @param target - the Redis URL the run used, credentials already masked (a password shows as `***`), and the key
 *   prefix; both are always written, so the command never falls back to `$REDIS_URL` or another Redis
 * @param flags - trailing flags (`['--yes']`)
 * @returns the command, words quoted for a POSIX shell
 */
export function crawleeRedisCommand(command: string[], target: { redisUrl: string; keyPrefix: string }, flags: string[] = []): string {
  return [CRAWLEE_REDIS, ...[...command, '--redis', target.redisUrl, '--key-prefix', target.keyPrefix, ...flags].map(shellWord)].join(' ');
}

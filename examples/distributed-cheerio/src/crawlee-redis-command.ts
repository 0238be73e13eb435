/**
 * The one place that spells a `crawlee-redis` command line for a message or the summary. In a clone of this
 * repository the CLI is run from the built package (`npx crawlee-redis` needs the bin linked after a build, and
 * otherwise asks the public registry for a package of that name), so every printed command goes through here and
 * changes in one place when that works.
 */

/** How the CLI is started, from the repository root. */
export const CRAWLEE_REDIS = 'node packages/redis-queue/dist/cli/bin.js';

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

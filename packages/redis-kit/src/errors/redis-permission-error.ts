import { CrawleeRedisError } from './crawlee-redis-error.js';

/** What a {@link RedisPermissionError} says was denied. */
export interface PermissionDenied {
  /** The command the server refused (lower case), when the reply or the call names it, e.g. `'evalsha'`. */
  command?: string;
  /** The keys the refused call used: the ACL must allow a key pattern (`~pattern`) that covers them. */
  keys?: readonly string[];
  /** The server's reply, e.g. `NOPERM this user has no permissions to access one of the keys used as arguments`. */
  reply: string;
}

/**
 * Redis accepted the user, but its ACL refuses a command or a key the package needs (`NOPERM`), at the first
 * connect or on a later command or script. Nothing of the refused call was written (Redis checks ACLs before it
 * runs a command; a script stops at the refused call). Code `'REDIS_PERMISSION'`. The packages' README lists the
 * rules a least-privilege worker needs.
 */
export class RedisPermissionError extends CrawleeRedisError {
  /** The refused command, when known (lower case). */
  readonly command: string | undefined;
  /** The keys of the refused call (what the user's `~pattern` rules must cover). */
  readonly keys: readonly string[];

  /**
   * @param context - who asked, e.g. `request queue "crawl" listAndLockHead`
   * @param denied - the command, keys and server reply
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(context: string, denied: PermissionDenied, options?: ErrorOptions) {
    const command = denied.command ?? /'([a-z|]+)' command/i.exec(denied.reply)?.[1]?.toLowerCase();
    const keys = denied.keys ?? [];
    const keyHint = /key/i.test(denied.reply) && keys.length > 0 ? ` Allow the keys with a pattern such as \`~${keyPattern(keys)}\`.` : '';
    const commandHint = command !== undefined && !/key/i.test(denied.reply) ? ` Allow the command with \`+${command}\`.` : '';
    super(
      'REDIS_PERMISSION',
      `${context}: Redis refused this user (${denied.reply})${command ? ` on ${command}` : ''}` +
        `${keys.length > 0 ? ` with keys ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''}` : ''}.` +
        `${keyHint}${commandHint} Ask the Redis admin to extend the user's ACL (see "ACL for a least-privilege ` +
        'worker" in the README), or connect as another user.',
      options,
    );
    this.command = command;
    this.keys = keys;
  }
}

/** The longest common start of the keys, up to and including its last `:`, followed by `*`. */
function keyPattern(keys: readonly string[]): string {
  let common = keys[0]!;
  for (const key of keys) while (!key.startsWith(common)) common = common.slice(0, -1);
  const cut = common.lastIndexOf(':');
  return `${cut === -1 ? common : common.slice(0, cut + 1)}*`;
}

import { CrawleeRedisError } from './crawlee-redis-error.js';

/** What a {@link RedisPermissionError} says was denied. */
export interface PermissionDenied {
  /** The command the server refused (lower case), when the reply or the call names it, e.g. `'evalsha'`. */
  command?: string;
  /** The keys the refused call used: the ACL must allow a key pattern (`~pattern`) that covers them. */
  keys?: readonly string[];
  /** The server's reply, e.g. `NOPERM this user has no permissions to access one of the keys used as arguments`. */
  reply: string;
  /** What the package as a whole needs (its key patterns and commands), appended to the message. */
  advice?: string;
}

/** Redis 7.0's reply for a command a script calls that the ACL refuses (TIME, HSET, ...): it does not name it. */
const SCRIPT_CALL_DENIED = /can't run this command or subcommand/i;

/**
 * Redis accepted the user, but its ACL refuses a command or a key the package needs (`NOPERM`), at the first
 * connect or on a later command or script. Nothing of the refused call was written (Redis checks ACLs before it
 * runs a command; a script stops at the refused call). Code `'REDIS_PERMISSION'`. crawlee-redis-queue's docs/security.md lists the
 * rules a least-privilege worker needs.
 */
export class RedisPermissionError extends CrawleeRedisError {
  /** The refused command, when known (lower case). */
  readonly command: string | undefined;
  /** The keys of the refused call (what the user's `~pattern` rules must cover). */
  readonly keys: readonly string[];
  /** The server's reply. */
  readonly reply: string;
  /** What the package as a whole needs, when it said (key patterns, commands). */
  readonly advice: string | undefined;
  private readonly context: string;

  /**
   * @param context - who asked, e.g. `request queue "crawl" listAndLockHead`
   * @param denied - the command, keys and server reply
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(context: string, denied: PermissionDenied, options?: ErrorOptions) {
    const command = denied.command ?? /'([a-z|]+)' command/i.exec(denied.reply)?.[1]?.toLowerCase();
    const keys = denied.keys ?? [];
    const keyHint = /key/i.test(denied.reply) && keys.length > 0 ? ` Allow the keys with a pattern such as \`~${keyPattern(keys)}\`.` : '';
    const inScript = SCRIPT_CALL_DENIED.test(denied.reply);
    const commandHint = inScript
      ? ' A command the script calls is refused (Redis does not say which).'
      : command !== undefined && !/key/i.test(denied.reply)
        ? ` Allow the command with \`+${command}\`.`
        : '';
    super(
      'REDIS_PERMISSION',
      `${context}: Redis refused this user (${denied.reply})${command ? ` on ${command}` : ''}` +
        `${keys.length > 0 ? ` with keys ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''}` : ''}.` +
        `${keyHint}${commandHint}${denied.advice ? ` ${denied.advice}` : ''} Ask the Redis admin to extend the user's ACL (see "ACL for a least-privilege ` +
        'worker" in crawlee-redis-queue\'s docs/security.md), or connect as another user.',
      options,
    );
    this.command = command;
    this.keys = keys;
    this.reply = denied.reply;
    this.advice = denied.advice;
    this.context = context;
  }

  /**
   * The same refusal with the package's advice (its key patterns and commands) in the message.
   * @param advice - what the package needs
   * @returns a new error (this one when it already carries advice)
   */
  withAdvice(advice: string): RedisPermissionError {
    if (this.advice !== undefined) return this;
    // Through this.constructor, not the class name: a class that names itself inside its body is bundled by esbuild
    // as `var RedisPermissionError = class _RedisPermissionError`, and `name` (from new.target) would read
    // `_RedisPermissionError`.
    const Self = this.constructor as typeof RedisPermissionError;
    const copy = new Self(this.context, { reply: this.reply, keys: this.keys, advice, ...(this.command ? { command: this.command } : {}) }, { cause: this.cause });
    copy.stack = `${copy.name}: ${copy.message}\n${(this.stack ?? '').split('\n').slice(1).join('\n')}`;
    return copy;
  }
}

/** The longest common start of the keys, up to and including its last `:`, followed by `*`; inside a hash tag
 * (`{p:rq:name}:meta`) it stops at the tag's last `:` (`{p:rq:*`), so one rule covers every queue of a prefix. */
function keyPattern(keys: readonly string[]): string {
  let common = keys[0]!;
  for (const key of keys) while (!key.startsWith(common)) common = common.slice(0, -1);
  const close = common.startsWith('{') ? common.indexOf('}') : -1;
  const inTag = close === -1 ? common : common.slice(0, close);
  const cut = inTag.lastIndexOf(':');
  return `${cut === -1 ? common : common.slice(0, cut + 1)}*`;
}

import { RedisAuthError } from '../errors/redis-auth-error.js';
import { RedisDatabaseError } from '../errors/redis-database-error.js';
import { RedisPermissionError } from '../errors/redis-permission-error.js';
import { RedisTlsError } from '../errors/redis-tls-error.js';
import type { CrawleeRedisError } from '../errors/crawlee-redis-error.js';
import { maskRedisUrl } from '../url/mask-redis-url.js';
import { redactedCause } from '../errors/redacted-cause.js';

/** Node's TLS failure codes: OpenSSL errors are `ERR_SSL_*`, certificate checks have their own names. */
const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|HOSTNAME_MISMATCH|ERR_TLS_CERT_ALTNAME_INVALID)/;

/** The part of a message from the `NOPERM` code on (Redis may wrap it, e.g. inside a script error), or undefined.
 * Redis 7.0 reports a command a script calls that the ACL refuses (TIME, say) as an `ERR` reply saying the user
 * executing the script can't run this command or subcommand: an ACL refusal too. */
export function nopermReply(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const at = message.search(/\bNOPERM\b|The user executing the script can't run this command/);
  return at === -1 ? undefined : message.slice(at).split('\n')[0]!.replace(/\s*script:.*$/, '').replace(/[\s,]+$/, '');
}

/**
 * A `NOPERM` error as a {@link RedisPermissionError}, naming the refused command and its keys from what ioredis
 * attaches to a reply error (`error.command = { name, args }`) unless the caller knows them better.
 *
 * @param error - what a command or script rejected with
 * @param context - who asked, e.g. `crawlee-redis-queue`
 * @param known - the command and keys when the caller knows them (a script's KEYS)
 * @returns the typed error, or undefined when `error` is not a NOPERM
 */
export function permissionErrorOf(
  error: unknown,
  context: string,
  known: { command?: string; keys?: readonly string[]; advice?: string } = {},
): RedisPermissionError | undefined {
  if (error instanceof RedisPermissionError) return known.advice !== undefined ? error.withAdvice(known.advice) : undefined;
  // A refused command inside MULTI makes EXEC fail with EXECABORT; ioredis keeps the real replies in previousErrors.
  const previous = (error as { previousErrors?: unknown[] }).previousErrors;
  const denied = Array.isArray(previous) ? previous.find((e) => nopermReply(e) !== undefined) : undefined;
  if (denied !== undefined) return permissionErrorOf(denied, context, known);
  const reply = nopermReply(error);
  if (reply === undefined) return undefined;
  const sent = (error as { command?: { name?: string; args?: unknown[] } }).command;
  const command = known.command ?? (typeof sent?.name === 'string' ? sent.name.toLowerCase() : undefined);
  const firstArg = sent?.args?.[0];
  const keys = known.keys ?? (typeof firstArg === 'string' && !/^eval/.test(command ?? '') ? [firstArg] : undefined);
  // A reply that names the command (`... to run the 'info' command`) is more exact than the command we sent.
  const named = /'([a-z|]+)' command/i.exec(reply)?.[1]?.toLowerCase();
  return new RedisPermissionError(
    context,
    { reply, command: named ?? command, ...(keys ? { keys } : {}), ...(known.advice !== undefined ? { advice: known.advice } : {}) },
    { cause: redactedCause(error) },
  );
}

/**
 * Classifies an error seen before the first connect was ready. An ANSWER from Redis or a TLS failure is final (a
 * typed error, never a retry or a fallback); anything else (refused, reset, timeout) returns undefined: the server
 * may still be starting, and the first-connect timeout reports {@link RedisUnreachableError}.
 *
 * @param error - the ioredis / Node error
 * @param url - the Redis URL (masked by the error classes)
 * @returns the final error, or undefined to keep retrying
 */
export function classifyConnectError(error: Error & { code?: string }, url: string): CrawleeRedisError | undefined {
  const message = error.message ?? '';
  if (/^(NOAUTH|WRONGPASS)\b/.test(message)) return new RedisAuthError(url, message, { cause: redactedCause(error) });
  if (/DB index is out of range|invalid DB index/i.test(message)) return new RedisDatabaseError(url, message, { cause: redactedCause(error) });
  const denied = permissionErrorOf(error, `connecting to Redis at ${maskRedisUrl(url)}`);
  if (denied) return denied;
  if (typeof error.code === 'string' && TLS_CODES.test(error.code)) {
    return new RedisTlsError(url, `${error.code}: ${message}`, { cause: redactedCause(error) });
  }
  return undefined;
}

import { permissionErrorOf } from '../connection/classify-redis-error.js';
import { CrawleeRedisError } from '../errors/crawlee-redis-error.js';

/** Builds the typed error of one reply code from the rest of the reply (`detail`, context prepended). */
export type ReplyErrorFactory<E extends Error = Error> = (detail: string, cause: unknown) => E;

const CODED_REPLY = /^([A-Z][A-Z0-9_]*) ?(.*)$/s;

/**
 * The one way an error reply of a Lua script (`redis.error_reply('<CODE> detail')`, the BullMQ idea of mapping
 * error codes in one place) becomes a typed error. Each package passes the factories of its reply-code table, typed
 * as `Record<code, factory>`, so a code without an error class does not compile.
 *
 * @param error - what ioredis rejected with (a `ReplyError`), or a reply string of a per-item result
 * @param context - prepended to the detail, e.g. `request queue "crawl" prolongRequestLock`
 * @param factories - reply code to error
 * @param fallback - the error for a reply no code matches (a Redis error such as OOM, WRONGTYPE, CROSSSLOT, a bug)
 * @returns the typed error (`RedisPermissionError` for a `NOPERM`); an error that is already a {@link CrawleeRedisError} is returned as it is
 */
export function mapReplyError<E extends Error>(
  error: unknown,
  context: string,
  factories: Readonly<Record<string, ReplyErrorFactory<E>>>,
  fallback: ReplyErrorFactory<E>,
): E | CrawleeRedisError {
  // Already typed (e.g. RedisUnreachableError from the first connect): wrapping would hide its class and code.
  if (error instanceof CrawleeRedisError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const match = CODED_REPLY.exec(message);
  const factory = match && Object.hasOwn(factories, match[1]!) ? factories[match[1]!] : undefined;
  if (factory) return factory(`${context}: ${match![2]}`, error);
  // An ACL refusal is the user's configuration, not a script failure: typed, with what to allow.
  const denied = permissionErrorOf(error, context);
  if (denied) return denied;
  return fallback(`${context}: ${message}`, error);
}

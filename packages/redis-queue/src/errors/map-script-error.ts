import { LockLostError } from './lock-lost-error.js';
import { RedisScriptError } from './redis-script-error.js';
import { RedisQueueError } from './redis-queue-error.js';
import { RequestAlreadyHandledError } from './request-already-handled-error.js';
import { RequestNotFoundError } from './request-not-found-error.js';

/**
 * The one place where error replies of the Lua scripts (`redis.error_reply('RQ_CODE detail')`) become typed errors.
 *
 * @param error - what ioredis rejected with
 * @param context - e.g. `queue "crawl" prolongRequestLock`
 * @returns the typed error to throw
 */
export function mapScriptError(error: unknown, context: string): RedisQueueError {
  // Already typed (e.g. RedisUnreachableError from the first connect): wrapping would hide its class and code.
  if (error instanceof RedisQueueError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const match = /^(RQ_[A-Z_]+) ?(.*)$/s.exec(message);
  const detail = `${context}: ${match?.[2] ?? message}`;
  switch (match?.[1]) {
    case 'RQ_NOT_FOUND':
      return new RequestNotFoundError(detail, { cause: error });
    case 'RQ_HANDLED':
      return new RequestAlreadyHandledError(detail, { cause: error });
    case 'RQ_NOT_LOCKED':
      return new LockLostError(`${detail} (its lock expired and was recovered)`, false, { cause: error });
    case 'RQ_LOCKED_BY_OTHER':
      return new LockLostError(detail, true, { cause: error });
    default:
      return new RedisScriptError(`${detail}`, { cause: error });
  }
}

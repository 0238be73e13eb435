import { mapReplyError, type CrawleeRedisError, type ReplyErrorFactory } from '@crawlee-distributed/redis-kit';
import { ERROR_REPLY, type ErrorReplyName } from './reply-codes.js';
import { DedupStoreRequiredError } from '../errors/dedup-store-required-error.js';
import { HandledModeMismatchError } from '../errors/handled-mode-mismatch-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { LockLostError } from '../errors/lock-lost-error.js';
import { QueueMetadataCorruptError } from '../errors/queue-metadata-corrupt-error.js';
import { QueueMissingError } from '../errors/queue-missing-error.js';
import { PolitenessMismatchError } from '../errors/politeness-mismatch-error.js';
import type { RedisQueueError } from '../errors/redis-queue-error.js';
import { RedisScriptError } from '../errors/redis-script-error.js';
import { RequestAlreadyHandledError } from '../errors/request-already-handled-error.js';
import { RequestNotFoundError } from '../errors/request-not-found-error.js';
import { wrongTypeErrorOf } from '../errors/wrong-type-error-of.js';

/** One error class per reply code of src/lua/reply-codes.json; a code without an entry does not compile. */
const BY_NAME: Record<ErrorReplyName, ReplyErrorFactory<RedisQueueError>> = {
  NOT_FOUND: (detail, cause) => new RequestNotFoundError(detail, { cause }),
  HANDLED: (detail, cause) => new RequestAlreadyHandledError(detail, { cause }),
  NOT_LOCKED: (detail, cause) => new LockLostError(`${detail} (its lock expired and was recovered)`, false, { cause }),
  LOCKED_BY_OTHER: (detail, cause) => new LockLostError(detail, true, { cause }),
  // validate-plan.ts rejects bad plans before the script; this is the script's own check of the same input.
  BAD_PLAN: (detail, cause) =>
    new InvalidOptionsError(`${detail}: the enqueue filter plan is not valid; the dedup store does not follow enqueue-filter-seam@1`, { cause }),
  POLITENESS: (detail, cause) =>
    new PolitenessMismatchError(
      `${detail}: this queue's politeness mode differs from this client's; open it with the politeness settings it was created with, or drop it to change them (nothing was written)`,
      { cause },
    ),
  MODE_MISMATCH: (detail, cause) => new HandledModeMismatchError(detail, { cause }),
  STORE_REQUIRED: (detail, cause) => new DedupStoreRequiredError(detail, { cause }),
  // '<context>: <key> field "<field>" holds "<value>"' from includes/meta-number.lua.
  META_CORRUPT: (detail, cause) => {
    const m = /^(.*): (\S+) field "([^"]*)" holds "(.*)"/s.exec(detail.replace(/\s*script: [0-9a-f]+, on @user_script.*$/s, ''));
    return new QueueMetadataCorruptError(m?.[1] ?? detail, m?.[2] ?? '(meta)', m?.[3] ?? '?', m?.[4] ?? '?', { cause });
  },
  QUEUE_MISSING: (detail, cause) => new QueueMissingError(`${detail}; ${QueueMissingError.ADVICE}`, { cause }),
};

const BY_CODE: Record<string, ReplyErrorFactory<RedisQueueError>> = Object.fromEntries(
  (Object.keys(BY_NAME) as ErrorReplyName[]).map((name) => [ERROR_REPLY[name], BY_NAME[name]]),
);

/**
 * The one place where error replies of the Lua scripts (`redis.error_reply('RQ_CODE detail')`) become typed errors.
 *
 * @param error - what ioredis rejected with (or a per-request error string of prolong-request-lock.lua)
 * @param context - e.g. `queue "crawl" prolongRequestLock`
 * @returns the typed error to throw; an already typed error (e.g. RedisUnreachableError) is returned as it is
 */
export function mapScriptError(error: unknown, context: string): RedisQueueError | CrawleeRedisError {
  return mapReplyError(error, context, BY_CODE, (detail, cause) =>
    // HINCRBY on a counter another writer set to text: Redis does not say which field, only that it is not a number.
    /hash value is not an integer|hash value is not a float/.test(detail)
      ? new QueueMetadataCorruptError(context, "the queue's metadata", 'total, pending or handled', '(not a whole number)', { cause })
      : (wrongTypeErrorOf(cause) ?? new RedisScriptError(detail, { cause })),
  );
}

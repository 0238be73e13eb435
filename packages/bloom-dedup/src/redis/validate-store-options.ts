import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { assertUnambiguousStoreKey } from './bloom-keys.js';

/** Largest `maxBatch` accepted (keys per script call). */
export const MAX_BATCH = 50_000;

/** The options every Redis store shares, checked the same way before anything touches Redis. */
interface CommonRedisStoreOptions {
  key: string;
  redis: unknown;
  maxBatch?: number;
  connectTimeoutSecs?: number;
  split?: unknown;
}

/**
 * Validates `key`, `redis`, `maxBatch`, `connectTimeoutSecs` and `split` of a Redis dedup store.
 * @throws {@link InvalidDedupOptionsError} naming the first bad option (a key that is only a hash tag, `{x}`, is
 *   refused: its derived keys are those of the key `x`)
 */
export function validateRedisStoreOptions(options: CommonRedisStoreOptions): void {
  if (typeof options?.key !== 'string' || options.key.length === 0) {
    throw new InvalidDedupOptionsError('key must be a non-empty string');
  }
  assertUnambiguousStoreKey(options.key);
  if (options.redis === undefined || options.redis === null) throw new InvalidDedupOptionsError('redis is required');
  // Bounded above: one script call carries the whole batch, and a huge one overflows the stack inside ioredis.
  if (options.maxBatch !== undefined && (!Number.isSafeInteger(options.maxBatch) || options.maxBatch < 1 || options.maxBatch > MAX_BATCH)) {
    throw new InvalidDedupOptionsError(`maxBatch must be a whole number from 1 to ${MAX_BATCH}, got ${String(options.maxBatch)}; the default is 5000`);
  }
  if (options.split !== undefined && typeof options.split !== 'boolean') {
    throw new InvalidDedupOptionsError(`split must be true or false, got ${JSON.stringify(options.split)}; the default is true`);
  }
  if (
    options.connectTimeoutSecs !== undefined &&
    !(typeof options.connectTimeoutSecs === 'number' && options.connectTimeoutSecs > 0 && options.connectTimeoutSecs <= 3600)
  ) {
    throw new InvalidDedupOptionsError(
      `connectTimeoutSecs must be a number of seconds from 0 to 3600 (exclusive of 0), got ${String(options.connectTimeoutSecs)}`,
    );
  }
}

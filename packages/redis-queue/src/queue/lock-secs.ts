import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** The longest lock accepted, in seconds (30 days). A handler that runs longer keeps its lock with
 * `refreshRequestLock` heartbeats instead. */
export const MAX_LOCK_SECS = 30 * 24 * 3600;

/** The shortest lock accepted, in seconds (locks are kept in whole milliseconds). */
export const MIN_LOCK_SECS = 0.001;

/**
 * Checks a lock time before anything is sent: an infinite or absurd lock would never expire, so a dead worker's
 * requests would never come back and every other worker would wait for them for ever.
 *
 * @param what - what the value is, for the message (e.g. `listAndLockHead lockSecs`)
 * @param value - the lock time in seconds
 * @returns the lock time in whole milliseconds
 * @throws {@link InvalidOptionsError} unless it is a number from 0.001 to 2,592,000 (30 days)
 */
export function lockMsOf(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_LOCK_SECS || value > MAX_LOCK_SECS) {
    throw new InvalidOptionsError(
      `${what} must be a number of seconds from ${MIN_LOCK_SECS} to ${MAX_LOCK_SECS} (30 days) (got ${String(value)}); ` +
        'a handler that runs longer keeps its lock with refreshRequestLock heartbeats',
    );
  }
  return Math.round(value * 1000);
}

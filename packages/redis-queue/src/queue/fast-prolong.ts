import type { FreshLock } from './lock-ledger.js';

/** What `prolongRequestLock` may answer without waiting for Redis. */
export type FastProlongAnswer =
  /** The lock was taken with this prolong's time already added: its expiry is the answer, nothing is sent. */
  | { kind: 'already-applied'; lockExpiresAt: number }
  /** Answer now with the expiry the script will set, and send the prolong in the background. */
  | { kind: 'background'; lockExpiresAt: number };

/**
 * The `fastProlong` rule. Crawlee's RequestQueue prolongs every request it takes from its local buffer, right after
 * `listAndLockHead` locked it. A lock this client took less than half a lock time ago cannot be held by anyone else,
 * so that prolong can be answered locally: with the expiry rule the lock was taken for twice the time at once (the
 * same expiry, one script call less); otherwise it is extended in the background by the same rule as the script.
 * Commands on one connection run in order, so later calls see the new expiry.
 *
 * @param fresh - the lock facts recorded at lock time (undefined: not a fresh lock of this client)
 * @param lockMs - the prolong's lock time, in ms
 * @param mode - the prolong rule (`'expiry'` or `'now'`)
 * @param now - local monotonic time (`performance.now()`)
 * @returns the local answer, or undefined when the prolong must ask Redis
 */
export function fastProlongAnswer(fresh: FreshLock | undefined, lockMs: number, mode: 'expiry' | 'now', now: number): FastProlongAnswer | undefined {
  if (!fresh || now - fresh.lockedAt >= fresh.lockMs / 2) return undefined;
  if (fresh.appliedMs === lockMs) return { kind: 'already-applied', lockExpiresAt: fresh.expiresAt };
  if (fresh.appliedMs !== 0) return undefined;
  const from = mode === 'expiry' ? fresh.expiresAt : fresh.expiresAt - fresh.lockMs;
  return { kind: 'background', lockExpiresAt: from + lockMs };
}

/**
 * Lock time added to a `listAndLockHead` lock in anticipation of the prolong Crawlee makes next: with `fastProlong`
 * and the expiry rule, the whole lock time once more (see {@link fastProlongAnswer}); else 0.
 * @param fastProlong - the option
 * @param mode - the prolong rule
 * @param lockMs - the lock time, in ms
 */
export function anticipatedProlongMs(fastProlong: boolean, mode: 'expiry' | 'now', lockMs: number): number {
  return fastProlong && mode === 'expiry' ? lockMs : 0;
}

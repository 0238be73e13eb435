import type { LockHeadResult } from './lock-when-open.js';

/** The longest window, ms: the look-ahead call comes right after the hand-out. */
export const MAX_QUIET_MS = 250;

/**
 * The look-ahead answer of a polite queue. Crawlee's RequestQueueV2 calls `listAndLockHead` again as soon as its head
 * is down to one request, before it hands that request to the crawler, so on a queue of few hosts every hand-out is
 * followed by a lock call that finds nothing and sits between the hand-out and the handler (one round trip per
 * request, the whole margin at a short delay). After a call that locked something, the polite lock script says when
 * the next request can be handed out at the earliest (its quiet time: the first waiting host or delayed request, at
 * most minDelay ahead). The next lock call before then (at most {@link MAX_QUIET_MS} after the hand-out), while
 * requests this client locked wait for Crawlee, is answered here with nothing, once: only another client's add could
 * make work available sooner, and this client has work in hand. This client's own add, update or release ends the
 * window.
 */
export class QuietWindow {
  private until = 0;
  private last: LockHeadResult | undefined;

  /**
   * Answers a lock call locally while the window lasts and `lockedAhead` says Crawlee still holds requests.
   * @param limit - the call's limit (0 always asks Redis)
   * @param lockSecs - the call's lock time (echoed)
   * @param lockedAhead - whether requests this client locked wait for Crawlee to start them
   * @returns the local empty answer, or undefined: ask Redis
   */
  answer(limit: number, lockSecs: number, lockedAhead: boolean): LockHeadResult | undefined {
    const last = this.last;
    if (!last || limit === 0 || !lockedAhead || performance.now() >= this.until) return undefined;
    this.clear();
    return { ...last, limit, lockSecs, queueHasLockedRequests: true, items: [] };
  }

  /** Opens the window after a call that locked something and said when the next hand-out can come.
   * @param result - the lock call's result */
  after(result: LockHeadResult): void {
    if (result.items.length === 0 || result.nextOpenInMs === undefined || result.nextOpenInMs <= 0) {
      this.clear();
      return;
    }
    this.until = performance.now() + Math.min(result.nextOpenInMs, MAX_QUIET_MS);
    const { nextOpenInMs: _, items: __, ...flags } = result;
    this.last = { ...flags, items: [] };
  }

  /** This client added, updated or released a request: the next call asks Redis. */
  clear(): void {
    this.until = 0;
    this.last = undefined;
  }
}

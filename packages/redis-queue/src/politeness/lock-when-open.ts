import type { ListAndLockHeadResult } from '../core/crawlee-types.js';
import { WakeSignal } from './wake-signal.js';

/** A `listAndLockHead` result, with when a polite queue's first waiting host opens. */
export type LockHeadResult = ListAndLockHeadResult & {
  /** When nothing was locked on a polite queue because every host with available requests waits (its delay, or a
   * delayed retry): ms until the first of them opens (Redis time; 0 or less: now). Absent otherwise. */
  nextOpenInMs?: number;
};

/** How long one `listAndLockHead` waits in total for a polite queue's next host (ms). Crawlee polls an empty queue
 * every 0.5 s anyway; a host that opens later than this is asked for by a later poll. */
export const MAX_OPEN_WAIT_MS = 2000;

/**
 * Dispatch that knows when the next host opens: when a polite lock call hands out nothing because every host waits,
 * the lock script says when the first one opens; this waits until then (at most `maxWaitMs` in all) and asks again,
 * so a polite crawl runs at its hosts' pace instead of at the pace of Crawlee's blind polls. A queue with nothing
 * waiting, or a host opening later than the bound, answers at once. A `wake` (this client handled, released or added
 * a request) ends the sleep early and asks again: the host just freed may now open before the one slept for. No
 * wait while `mayWait` says no (the client has requests locked ahead that Crawlee has not started: they must not
 * wait for another host).
 *
 * @param lock - one lock call
 * @param maxWaitMs - the bound, ms (default {@link MAX_OPEN_WAIT_MS})
 * @param wake - the client's wake signal (default: one nobody notifies)
 * @param mayWait - whether a wait is allowed now (default: always)
 * @returns the first result with items, or the last empty one
 */
export async function lockWhenOpen(lock: () => Promise<LockHeadResult>, maxWaitMs = MAX_OPEN_WAIT_MS, wake = new WakeSignal(), mayWait: () => boolean = () => true): Promise<LockHeadResult> {
  const started = performance.now();
  let sent = started;
  let result = await lock();
  for (;;) {
    const wait = result.nextOpenInMs;
    if (result.items.length > 0 || wait === undefined || wait <= 0 || !mayWait()) return result;
    if (performance.now() - started + wait > maxWaitMs) return result;
    // The wait counts from when the script ran, about half a round trip before its answer arrived, and the next call
    // reaches Redis half a round trip after it is sent: sleeping one round trip less makes the call arrive as the
    // host opens instead of a round trip later (at a short delay that round trip is a large share of each hand-out).
    // One ms more: Redis time has ms resolution. A call that still arrives early is told the few ms left.
    const roundTripMs = performance.now() - sent;
    await wake.sleep(Math.max(0, wait + 1 - roundTripMs));
    sent = performance.now();
    result = await lock();
  }
}

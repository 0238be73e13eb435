import { setTimeout as sleep } from 'node:timers/promises';
import type { ListAndLockHeadResult } from '../crawlee-types.js';

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
 * waiting, or a host opening later than the bound, answers at once.
 *
 * @param lock - one lock call
 * @param maxWaitMs - the bound, ms (default {@link MAX_OPEN_WAIT_MS})
 * @returns the first result with items, or the last empty one
 */
export async function lockWhenOpen(lock: () => Promise<LockHeadResult>, maxWaitMs = MAX_OPEN_WAIT_MS): Promise<LockHeadResult> {
  const started = performance.now();
  let result = await lock();
  for (;;) {
    const wait = result.nextOpenInMs;
    if (result.items.length > 0 || wait === undefined || wait <= 0) return result;
    if (performance.now() - started + wait > maxWaitMs) return result;
    // One ms more: Redis time has ms resolution, and the host's time must have come when the call arrives.
    await sleep(wait + 1);
    result = await lock();
  }
}

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Wakes the waits of one queue client when this client changed something that can make work available sooner than
 * the wait foresaw: a request handled (its host's slot frees, its delay starts now), reclaimed, released or added.
 * A polite lock call that sleeps until the first waiting host opens then asks again at once and sleeps until the
 * host that opens first now (often the one just freed), instead of missing that host's turn for a whole delay.
 */
export class WakeSignal {
  private waiters = new Set<() => void>();

  /** Ends every wait now running. */
  notify(): void {
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }

  /**
   * Waits `ms` milliseconds, or less when {@link WakeSignal.notify} is called first.
   * @param ms - the longest wait, ms
   * @returns true when woken by notify, false when the time ran out
   */
  async sleep(ms: number): Promise<boolean> {
    const timer = new AbortController();
    let woken = false;
    const wake = () => {
      woken = true;
      timer.abort();
    };
    this.waiters.add(wake);
    try {
      await sleep(ms, undefined, { signal: timer.signal });
    } catch {
      // aborted by notify
    } finally {
      this.waiters.delete(wake);
    }
    return woken;
  }
}

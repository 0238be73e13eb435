import { lockWhenOpen, type LockHeadResult } from '../politeness/lock-when-open.js';
import { LockedAhead } from '../politeness/locked-ahead.js';
import { QuietWindow } from '../politeness/quiet-window.js';
import { WakeSignal } from '../politeness/wake-signal.js';
import { IdleBackoff } from '../queue/idle-backoff.js';
import type { ProbeAnswer } from '../queue/idle-probe.js';
import type { QueueCoreApi } from '../queue/queue-core-api.js';

/**
 * How one queue client's lock calls reach Redis, and what ends their waits. Crawlee's RequestQueueV2 asks for the
 * head again and again (its look-ahead, its task check, its finish check); this answers from what the client knows
 * where Redis has nothing new to say, and waits for a polite queue's next host where one is about to open:
 * - the quiet window answers the look-ahead call right after a polite hand-out ({@link QuietWindow});
 * - the idle back-off answers a client that finds nothing at all ({@link IdleBackoff});
 * - a polite call whose hosts all wait sleeps until the first opens ({@link lockWhenOpen}), but only while nothing
 *   this client locked still waits for Crawlee to start it ({@link LockedAhead});
 * - a change this client makes (add, update, release) ends the back-off and the window at once, and wakes the sleep
 *   once the change is in Redis ({@link WakeSignal}).
 */
export class LockDispatch {
  private readonly idle: IdleBackoff;
  private readonly wake = new WakeSignal();
  private readonly lockedAhead = new LockedAhead();
  private readonly quiet = new QuietWindow();

  /**
   * @param core - the queue core the calls go to
   * @param maxHostWaitMs - the longest wait of one polite call for its next host, ms
   * @param shards - the queue's shard count (the back-off's longest step grows with it)
   * @param idleBackoff - false: every call asks Redis
   * @param probe - the cheap check of an idle non-polite queue between back-off steps, if any
   */
  constructor(
    private readonly core: QueueCoreApi,
    private readonly maxHostWaitMs: number,
    shards: number,
    idleBackoff: boolean,
    probe: ((lockSecs: number) => Promise<ProbeAnswer>) | undefined,
  ) {
    this.idle = new IdleBackoff(shards, idleBackoff, probe);
  }

  /**
   * Runs a change that can make work available (an add, an update, a released lock): the back-off and the quiet
   * window end before it, a waiting lock call is woken after it (so the call it makes again sees the change).
   * @param id - the request the change is about, if one (Crawlee is done with it: no longer locked ahead)
   * @param run - the change
   */
  change<T>(id: string | undefined, run: () => Promise<T>): Promise<T> {
    this.idle.reset();
    this.quiet.clear();
    if (id !== undefined) this.lockedAhead.started(id);
    return run().finally(() => this.wake.notify());
  }

  /** Crawlee started request `id` (a prolong or read of it), or dropped it. @param id - the request id */
  started(id: string): void {
    this.lockedAhead.started(id);
  }

  /** The client released every lock it held: nothing is locked ahead any more. */
  releasedAll(): void {
    this.lockedAhead.clear();
  }

  /**
   * One `listAndLockHead` of Crawlee, answered locally or by Redis (see the class).
   * @param limit - the call's limit
   * @param lockSecs - the call's lock time, seconds
   */
  lock(limit: number, lockSecs: number): Promise<LockHeadResult> {
    const quiet = this.quiet.answer(limit, lockSecs, this.lockedAhead.any());
    if (quiet) return Promise.resolve(quiet);
    return this.idle.lock(limit, lockSecs, async () => {
      const result = await lockWhenOpen(() => this.core.lockHead(limit, lockSecs), this.maxHostWaitMs, this.wake, () => !this.lockedAhead.any());
      this.lockedAhead.add(
        result.items.map((item) => item.id),
        lockSecs,
      );
      this.quiet.after(result);
      return result;
    });
  }
}

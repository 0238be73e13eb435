import type { LockHeadResult } from '../politeness/lock-when-open.js';

/** Empty answers in a row from Redis before the back-off starts: a client that asks again right after one empty
 * answer (another worker may have just added or released work) is answered by Redis. */
const EMPTY_ANSWERS_BEFORE_BACKOFF = 3;
/** First local answer after the empty answers, ms. */
const FIRST_STEP_MS = 100;
/** Longest local answer, ms, for a queue of one shard; a sharded queue's walk asks every shard, so its longest step
 * grows with the shard count (50 ms per shard), which keeps an idle worker near 20 commands per second at most. */
const MAX_STEP_MS = 1000;
const STEP_PER_SHARD_MS = 50;

/**
 * The back-off of a worker that finds nothing at all. Crawlee asks an empty queue twice per half second (its task
 * check and its finish check), and on a sharded queue each ask walks every shard. After a lock call that locked
 * nothing, while other workers hold locks (so the crawl is not finished), the next calls are answered here with that
 * same empty answer (after three empty answers in a row from Redis) for a step that doubles from 100 ms up to 1 s (50 ms per shard on a sharded queue), instead of
 * asking Redis. Anything that can make work available through this client (an add, an update: a reclaim, or a
 * request handled, which frees its host's slot on a polite queue; a released lock) or a call that locked something
 * ends the back-off; a polite queue's next host time caps the step. A finished-looking
 * answer (no lock anywhere) is never reused: the next call asks Redis.
 */
export class IdleBackoff {
  private until = 0;
  private stepMs = 0;
  private empties = 0;
  private last: LockHeadResult | undefined;
  private readonly maxStepMs: number;

  /** @param shards - the queue's shard count @param enabled - false: every call asks Redis */
  constructor(
    shards: number,
    private readonly enabled = true,
  ) {
    this.maxStepMs = Math.max(MAX_STEP_MS, shards * STEP_PER_SHARD_MS);
  }

  /**
   * Answers from the back-off while it lasts, else runs the lock call and updates the back-off.
   * @param limit - the call's limit (echoed in a local answer)
   * @param lockSecs - the call's lock time (echoed in a local answer)
   * @param lock - the lock call
   */
  async lock(limit: number, lockSecs: number, lock: () => Promise<LockHeadResult>): Promise<LockHeadResult> {
    if (this.last && limit > 0 && performance.now() < this.until) return { ...this.last, limit, lockSecs, items: [] };
    const result = await lock();
    if (limit === 0 || !this.enabled) return result;
    if (result.items.length > 0 || !result.queueHasLockedRequests) {
      this.reset();
      return result;
    }
    if (++this.empties < EMPTY_ANSWERS_BEFORE_BACKOFF) return result;
    this.stepMs = Math.min(this.maxStepMs, Math.max(FIRST_STEP_MS, this.stepMs * 2));
    const step = result.nextOpenInMs === undefined ? this.stepMs : Math.min(this.stepMs, Math.max(0, result.nextOpenInMs));
    this.until = performance.now() + step;
    const { nextOpenInMs: _, ...flags } = result;
    this.last = flags;
    return result;
  }

  /** Work may be available now (this client added, updated or released a request): the next call asks Redis. */
  reset(): void {
    this.until = 0;
    this.stepMs = 0;
    this.empties = 0;
    this.last = undefined;
  }
}

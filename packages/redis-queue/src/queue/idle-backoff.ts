import type { LockHeadResult } from '../politeness/lock-when-open.js';
import type { ProbeAnswer } from './idle-probe.js';

/** Empty answers in a row from Redis before the back-off starts: a client that asks again right after one empty
 * answer (another worker may have just added or released work) is answered by Redis. */
const EMPTY_ANSWERS_BEFORE_BACKOFF = 3;
/** First local answer after the empty answers, ms. */
const FIRST_STEP_MS = 100;
/** Longest local answer, ms, for a queue of one shard; a sharded queue's probe (or walk) asks every shard, so its
 * longest step grows with the shard count (250 ms per shard: a probe costs two commands per shard, so an idle worker
 * stays under 20 commands per second that Redis runs, its expired-lock checks included). */
const MAX_STEP_MS = 1000;
const STEP_PER_SHARD_MS = 250;

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

  /**
   * @param shards - the queue's shard count
   * @param enabled - false: every call asks Redis
   * @param probe - when a step ends, a cheap look whether anything changed ('quiet': the next step starts without a
   *   lock call; see idle-probe.ts), or undefined: a step's end always makes a lock call
   */
  constructor(
    shards: number,
    private readonly enabled = true,
    private readonly probe?: (lockSecs: number) => Promise<ProbeAnswer>,
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
    if (this.last && limit > 0 && this.probe && (await this.probe(lockSecs)) === 'quiet' && this.last) {
      this.nextStep(undefined);
      return { ...this.last, limit, lockSecs, items: [] };
    }
    const result = await lock();
    if (limit === 0 || !this.enabled) return result;
    if (result.items.length > 0 || !result.queueHasLockedRequests) {
      this.reset();
      return result;
    }
    if (++this.empties < EMPTY_ANSWERS_BEFORE_BACKOFF) return result;
    this.nextStep(result.nextOpenInMs);
    const { nextOpenInMs: _, ...flags } = result;
    this.last = flags;
    return result;
  }

  /** Starts the next step (doubling up to the longest), capped by a polite queue's next host time. */
  private nextStep(nextOpenInMs: number | undefined): void {
    this.stepMs = Math.min(this.maxStepMs, Math.max(FIRST_STEP_MS, this.stepMs * 2));
    const step = nextOpenInMs === undefined ? this.stepMs : Math.min(this.stepMs, Math.max(0, nextOpenInMs));
    this.until = performance.now() + step;
  }

  /** Work may be available now (this client added, updated or released a request): the next call asks Redis. */
  reset(): void {
    this.until = 0;
    this.stepMs = 0;
    this.empties = 0;
    this.last = undefined;
  }
}

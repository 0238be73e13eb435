import type { ListAndLockHeadResult } from '../core/crawlee-types.js';
import type { ConnectionHandle } from '../core/connection.js';
import { FeedIdleWindow } from './feed-idle-window.js';
import { FeedTypeWarnings } from './feed-type-warnings.js';

/** What one drain of a feed did. */
export interface FeedDrainResult {
  /** Feed items this worker consumed (added, duplicates, filtered and dead letters). */
  consumed: number;
  /** True when the feed may still hold work this worker could not take now: a batch another worker claimed and has
   * not yet added, or a batch added since this worker's last look (which its look at the queue may have missed).
   * The worker must not finish yet. */
  busy: boolean;
}

/** How a queue's feed items reach its add path: one queue's own add script (`drain-start-urls.ts`), or the shards
 * of a sharded queue through a claim in the feed's slot (`src/shard/sharded-feed-drain.ts`). */
export interface FeedSource {
  /** Checks the feed keys' types. @throws {@link StartUrlFeedTypeError} */
  check(): Promise<void>;
  /**
   * Drains one batch.
   * @param warnings - where a key of a type the feed cannot read is reported and skipped
   * @param lockSecs - the caller's lock time (a claimed batch comes back after it, like a lock)
   */
  drain(warnings: FeedTypeWarnings, lockSecs: number): Promise<FeedDrainResult>;
}

/**
 * The start-URL feed of one queue client: when `listAndLockHead` found nothing available, drain one feed batch and
 * lock again; while the feed stays empty for less than `maxIdleSecs`, or another worker still holds a claimed batch,
 * report `queueHasLockedRequests` so Crawlee does not finish yet.
 */
export class StartUrlFeed {
  private readonly idle: FeedIdleWindow;
  private readonly warnings = new FeedTypeWarnings();

  /**
   * @param source - how the feed is drained
   * @param connection - the queue's connection (for the idle window's `TIME`)
   * @param maxIdleSecs - the idle window (`startUrls.maxIdleSecs`)
   * @param clockOffsetMs - added to Redis time (tests only)
   */
  constructor(
    private readonly source: FeedSource,
    connection: ConnectionHandle,
    maxIdleSecs: number,
    clockOffsetMs: () => number,
  ) {
    this.idle = new FeedIdleWindow(connection, maxIdleSecs * 1000, clockOffsetMs);
  }

  /** Checks the feed keys' types. @throws {@link StartUrlFeedTypeError} */
  check(): Promise<void> {
    return this.source.check();
  }

  /**
   * @param result - what `listAndLockHead` returned
   * @param lockAgain - runs `listAndLockHead` again
   * @param lockSecs - the lock time of the call
   * @returns the result to give Crawlee; a feed key of a type the feed cannot read is skipped with one warning per
   *   key and type change (never thrown here: the queue keeps being served)
   */
  async fill(result: ListAndLockHeadResult, lockAgain: () => Promise<ListAndLockHeadResult>, lockSecs: number): Promise<ListAndLockHeadResult> {
    if (result.items.length > 0) {
      this.idle.busy();
      return result;
    }
    const { consumed, busy } = await this.source.drain(this.warnings, lockSecs);
    let next = result;
    if (consumed > 0) next = await lockAgain();
    if (consumed > 0 || busy) this.idle.busy();
    if (next.items.length === 0 && !next.queueHasLockedRequests && (busy || (await this.idle.isOpen()))) return { ...next, queueHasLockedRequests: true };
    return next;
  }
}

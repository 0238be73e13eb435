import type { ConnectionHandle } from '../core/connection.js';
import { redisTimeMs } from '../core/redis-time-ms.js';

/**
 * scrapy-redis' `MAX_IDLE_TIME_BEFORE_CLOSE` for one worker: how long it has found the queue and its feed empty, on
 * Redis time. While the window is open the queue keeps saying "someone still works" (`queueHasLockedRequests`), so
 * Crawlee keeps polling instead of finishing; an item pushed to the feed meanwhile is read.
 */
export class FeedIdleWindow {
  private idleSinceMs: number | undefined;

  /**
   * @param connection - the queue's connection (for `TIME`)
   * @param maxIdleMs - window length in ms (0: no window)
   * @param clockOffsetMs - added to Redis time (tests only)
   */
  constructor(
    private readonly connection: ConnectionHandle,
    private readonly maxIdleMs: number,
    private readonly clockOffsetMs: () => number,
  ) {}

  /** The queue or the feed had something: the worker is not idle. */
  busy(): void {
    this.idleSinceMs = undefined;
  }

  /** @returns true while this worker has been idle for less than the window (starts the window on the first call) */
  async isOpen(): Promise<boolean> {
    if (this.maxIdleMs === 0) return false;
    const now = redisTimeMs((await this.connection.run(() => this.connection.redis.time())) as [string | number, string | number]) + this.clockOffsetMs();
    this.idleSinceMs ??= now;
    return now - this.idleSinceMs < this.maxIdleMs;
  }
}

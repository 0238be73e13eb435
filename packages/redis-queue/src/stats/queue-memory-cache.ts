import type { RedisConnection } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { readQueueMemory, type QueueMemory } from './read-queue-memory.js';

/** How long a measured queue memory is served before it is read again: `get()` runs on Crawlee's paths, and a
 * read costs about 30 `MEMORY USAGE` calls. */
export const MEMORY_CACHE_MS = 10_000;

/** The last {@link readQueueMemory} of one queue, reused for {@link MEMORY_CACHE_MS}; concurrent callers share one
 * read. */
export class QueueMemoryCache {
  private last?: { at: number; value: Promise<QueueMemory> };

  /**
   * @param redis - the connection
   * @param keys - the queue's keys
   * @param run - runs a Redis read through the connection policy
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: QueueKeys,
    private readonly run: <T>(read: () => Promise<T>) => Promise<T> = (read) => read(),
  ) {}

  /** @returns the queue's memory, at most {@link MEMORY_CACHE_MS} old */
  read(): Promise<QueueMemory> {
    const now = Date.now();
    if (this.last && now - this.last.at < MEMORY_CACHE_MS) return this.last.value;
    const value = this.run(() => readQueueMemory(this.redis, this.keys));
    this.last = { at: now, value };
    // A failed read is not cached: the next call tries again.
    value.catch(() => {
      if (this.last?.value === value) this.last = undefined;
    });
    return value;
  }
}

import type { RedisConnection } from '../core/connection.js';
import { QueueMissingError } from '../errors/queue-missing-error.js';

/**
 * The epoch of a queue as one client first saw it: its meta's `createdAt` (create-queue.lua). A Redis that came back
 * empty under a fleet (a restart without persistence) loses the queue; the scripts then refuse to run on it
 * (QueueMissingError), but a worker that starts afterwards creates the queue anew, and the old workers would crawl
 * on in the new, empty queue and finish as if done. So before a client lets Crawlee finish (a lock call found
 * nothing and no lock anywhere), it checks that the queue is still the one it started on: one HGET when the crawl
 * looks finished, one at the first lock call, none per request.
 */
export class QueueEpoch {
  private seen: string | undefined;

  /**
   * @param redis - the queue's connection
   * @param metaKey - the meta key that holds `createdAt` (a sharded queue: its first shard's)
   * @param queueName - for the message
   */
  constructor(
    private readonly redis: () => RedisConnection,
    private readonly metaKey: string,
    private readonly queueName: string,
  ) {}

  /** Remembers the epoch at this client's first lock call (a no-op afterwards). */
  async remember(): Promise<void> {
    if (this.seen !== undefined) return;
    this.seen = (await this.redis().hget(this.metaKey, 'createdAt')) ?? '';
  }

  /**
   * Checks that the queue is the one this client started on.
   * @throws {@link QueueMissingError} when its meta is gone or was created again since
   */
  async check(): Promise<void> {
    if (this.seen === undefined || this.seen === '') return;
    const now = await this.redis().hget(this.metaKey, 'createdAt');
    if (now === this.seen) return;
    const what =
      now === null
        ? "the queue's metadata is gone"
        : `the queue was created again since this worker started on it (created at ${new Date(Number(now)).toISOString()}, not ${new Date(Number(this.seen)).toISOString()})`;
    throw new QueueMissingError(
      `request queue "${this.queueName}": ${what}: the queue was dropped or purged away, or Redis lost its data (a restart without persistence); ${QueueMissingError.ADVICE}`,
    );
  }
}

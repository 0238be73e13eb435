import { RedisQueueError } from './redis-queue-error.js';

/**
 * An add (API, start-URL feed, takeover, `crawlee-redis seed`) reached a queue created with
 * `handledRequests: 'store'` without its dedup store: such a queue keeps no record of its handled requests (the
 * store is that record), so an add that skips the store could enqueue a handled request again. Nothing was written.
 */
export class DedupStoreRequiredError extends RedisQueueError {
  /**
   * @param detail - the queue and the operation
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(detail: string, options?: ErrorOptions) {
    super(
      'DEDUP_STORE_REQUIRED',
      `${detail}. Add through the queue wrapped with withDedup(queue, { store }) (crawlee-bloom-dedup, a Redis store on ` +
        "the queue's Redis, the one it was crawled with); nothing was written",
      options,
    );
  }
}

import { RedisQueueError } from './redis-queue-error.js';

/** A queue was opened with a `shards` count other than the one it was created with; nothing was written. Its
 * requests are spread by the recorded count, so another count would look for them in the wrong shards. */
export class ShardCountMismatchError extends RedisQueueError {
  /**
   * @param queue - the queue name
   * @param recorded - the shard count recorded in the queue's root metadata
   * @param requested - the count the caller asked for
   */
  constructor(
    readonly queue: string,
    readonly recorded: number,
    readonly requested: number,
  ) {
    super(
      'SHARD_COUNT_MISMATCH',
      `request queue "${queue}" was created with shards: ${recorded}, but was opened with shards: ${requested}; open it ` +
        `with shards: ${recorded} (every client of one queue must use the same count), or crawl into a new queue name ` +
        `with the new count (changing the count of an existing queue is not supported)`,
    );
  }
}

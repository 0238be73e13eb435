import { RedisQueueError } from './redis-queue-error.js';

/** The shard layout of a queue (`shards` count and `shardBy` rule). */
export interface ShardLayout {
  shards: number;
  shardBy: 'host' | 'uniqueKey';
}

/** A queue was opened with a `shards` count (or, with more than one shard, a `shardBy` rule) other than the one it was created
 * with; nothing was written. Its requests are spread by the recorded layout, so another one would look for them in
 * the wrong shards. */
export class ShardLayoutMismatchError extends RedisQueueError {
  /**
   * @param queue - the queue name
   * @param recorded - the layout recorded in the queue's root metadata
   * @param requested - the layout the caller asked for
   */
  constructor(
    readonly queue: string,
    readonly recorded: ShardLayout,
    readonly requested: ShardLayout,
  ) {
    const show = (l: ShardLayout) => (l.shards > 1 ? `shards: ${l.shards}, shardBy: '${l.shardBy}'` : 'shards: 1');
    super(
      'SHARD_LAYOUT_MISMATCH',
      `request queue "${queue}" was created with ${show(recorded)}, but was opened with ${show(requested)}; open it with ` +
        `${show(recorded)} (every client of one queue must use the same layout), or crawl into a new queue name with ` +
        `the new layout (changing the layout of an existing queue is not supported)`,
    );
  }
}

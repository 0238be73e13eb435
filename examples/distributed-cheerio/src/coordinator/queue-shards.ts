import { ShardLayoutMismatchError } from 'crawlee-redis-queue';
import { ShardCountMismatchError } from '../errors/shard-count-mismatch-error.js';
import type { RunOptions } from '../options.js';

/**
 * The shard count of this run. A new queue takes `--shards` (default 1); a queue that exists already (a resume, a
 * `--join`) keeps the count it was created with, so `--shards` may be left out there, and another count is refused
 * up front, as crawlee-redis-queue would refuse it when the queue is opened.
 *
 * @param options - the run's options
 * @param recorded - the count in the queue's metadata, undefined for a new queue (see queue-state.ts)
 * @returns the count to open the queue with
 * @throws {@link ShardCountMismatchError} when `--shards` contradicts the existing queue (its cause: the queue's
 *   `ShardLayoutMismatchError`)
 */
export function shardsForQueue(options: RunOptions, recorded: number | undefined): number {
  if (recorded === undefined) return options.shards ?? 1;
  if (options.shards !== undefined && options.shards !== recorded) {
    // The example never sets shardBy: every queue it creates shards by the default rule.
    const cause = new ShardLayoutMismatchError(options.runQueueName, { shards: recorded, shardBy: 'host' }, { shards: options.shards, shardBy: 'host' });
    throw new ShardCountMismatchError(options.runQueueName, recorded, options.shards, { cause });
  }
  return recorded;
}

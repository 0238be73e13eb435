import { DistributedCheerioError } from './distributed-cheerio-error.js';

/**
 * A rerun or `--join` of a queue names another `--shards` than the queue was created with. crawlee-redis-queue fixes
 * the layout when it creates a queue (a request's shard is computed from the count, so another count would look for
 * requests in the wrong shards) and refuses another one with its `ShardLayoutMismatchError` (the `cause`); the run is
 * refused before anything is served or started.
 */
export class ShardCountMismatchError extends DistributedCheerioError {
  /**
   * @param queueName - the queue
   * @param recorded - the count the queue was created with
   * @param given - this run's `--shards`
   * @param options - `cause`: the queue's `ShardLayoutMismatchError`
   */
  constructor(queueName: string, recorded: number, given: number, options?: ErrorOptions) {
    super(
      'E_SHARD_COUNT_MISMATCH',
      `queue ${queueName} was created with --shards ${recorded}, this run asks for --shards ${given}: every worker of a ` +
        'queue uses the shard count it was created with (crawlee-redis-queue refuses another one: ShardLayoutMismatchError). ' +
        'Leave out --shards (the run takes the queue\'s), or pick a new --queue to crawl with another count.',
      options,
    );
  }
}

import { CrawleeRedisError } from '@crawlee-distributed/redis-kit';

/** Base class of every error this package throws except {@link RedisUnreachableError} (which is shared with
 * crawlee-bloom-dedup); all of them extend `CrawleeRedisError`, and `code` is stable and meant for programs. */
export class RedisQueueError extends CrawleeRedisError {}

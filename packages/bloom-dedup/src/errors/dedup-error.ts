import { CrawleeRedisError } from '@crawlee-distributed/redis-kit';

/** Base class of every error this package throws except {@link RedisUnreachableError} (shared with
 * crawlee-redis-queue); all of them extend `CrawleeRedisError`, and `code` is stable and safe to switch on. */
export class DedupError extends CrawleeRedisError {}

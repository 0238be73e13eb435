import { DistributedCheerioError } from './distributed-cheerio-error.js';

/**
 * The run's Redis connection was ready, then lost, and did not come back within the reconnect budget
 * (`REDIS_RECONNECT_TIMEOUT_SECS`, default 60 s): Redis stopped for good, or the network to it is gone. The
 * process stops with exit code 1 instead of waiting for ever; nothing is lost (the requests it had locked return
 * to the queue when their locks expire).
 */
export class RedisConnectionLostError extends DistributedCheerioError {
  /**
   * @param who - the process, e.g. `vm/worker-1` or `coordinator`
   * @param url - the Redis URL, credentials masked
   * @param budgetSecs - the reconnect budget that ran out, in seconds
   * @param lastError - the last connection error, when there was one
   */
  constructor(who: string, url: string, budgetSecs: number, lastError: string | undefined) {
    super(
      'E_REDIS_LOST',
      `${who}: lost the connection to Redis at ${url} and it did not come back within ${budgetSecs} s` +
        `${lastError ? ` (${lastError})` : ''}; stopping. Start Redis again (or fix the network to it), then rerun ` +
        'with the same --queue to resume: requests locked by this run return when their locks expire ' +
        '(REDIS_RECONNECT_TIMEOUT_SECS sets how long to wait through a Redis restart).',
    );
  }
}

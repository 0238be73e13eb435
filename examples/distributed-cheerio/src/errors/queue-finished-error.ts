import { crawleeRedisCommand } from '../crawlee-redis-command.js';
import { DistributedCheerioError } from './distributed-cheerio-error.js';

/**
 * A rerun names a queue whose every request is handled: nothing is left to crawl, and starting workers would only
 * report 0 pages (and replace the output with an empty one).
 */
export class QueueFinishedError extends DistributedCheerioError {
  /**
   * @param queueName - the queue
   * @param redisUrl - the Redis URL, credentials masked
   * @param handled - handled requests in the queue
   * @param keyPrefix - the key prefix, for the drop command
   */
  constructor(queueName: string, redisUrl: string, handled: number, keyPrefix: string) {
    const finished =
      `queue ${queueName} on ${redisUrl} is finished: all ${handled} request(s) are handled, nothing is left to crawl ` +
      '(the output of the earlier run is left as it was). ';
    super(
      'E_QUEUE_FINISHED',
      `${finished}To crawl again from scratch, pick a new --queue, or drop this ` +
        `one first, from the repository root: ${crawleeRedisCommand(['drop', queueName], { redisUrl, keyPrefix }, ['--yes'])}` +
        (redisUrl.includes('***') ? ' (put the password back in place of ***, or leave --redis out and set REDIS_URL)' : '') +
        ' (it deletes every key of the queue\'s hash tag; README, "Several machines").',
    );
  }
}

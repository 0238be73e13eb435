import { DistributedCheerioError } from './distributed-cheerio-error.js';

/** `--join` names a queue that does not exist in Redis or never received a request: nothing for workers to do. */
export class QueueHasNoRequestsError extends DistributedCheerioError {
  /**
   * @param queueName - the queue
   * @param redisUrl - the Redis URL, credentials masked
   */
  constructor(queueName: string, redisUrl: string) {
    super('E_QUEUE_HAS_NO_REQUESTS', `queue ${queueName} on ${redisUrl} has no requests: start the seeding machine first (without --join)`);
  }
}

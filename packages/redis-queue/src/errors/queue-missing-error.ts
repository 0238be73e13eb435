import { RedisQueueError } from './redis-queue-error.js';

/** The queue's metadata vanished while clients were using it: the queue was dropped, or the Redis came back
 * without its data (a restart without persistence). Its requests are gone with it, so a worker must not carry on as
 * if the queue were merely empty. Nothing was written. */
export class QueueMissingError extends RedisQueueError {
  /**
   * @param message - what is missing and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('QUEUE_MISSING', message, options);
  }
}

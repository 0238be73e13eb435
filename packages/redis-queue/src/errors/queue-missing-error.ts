import { RedisQueueError } from './redis-queue-error.js';

/** The queue's metadata vanished while clients were using it: the queue was dropped, or the Redis came back
 * without its data (a restart without persistence). Its requests are gone with it, so a worker must not carry on as
 * if the queue were merely empty: a lock call that finds nothing, an add and a request update on such a queue throw
 * this (nothing written; the queue is never re-created under its workers). Code `QUEUE_MISSING`. */
export class QueueMissingError extends RedisQueueError {
  /**
   * @param message - what is missing and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('QUEUE_MISSING', message, options);
  }
}

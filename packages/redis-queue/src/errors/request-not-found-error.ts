import { RedisQueueError } from './redis-queue-error.js';

/** The request id is not in the queue (never added, deleted, or moved to the dead letters). */
export class RequestNotFoundError extends RedisQueueError {
  /**
   * @param message - which request and queue
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('REQUEST_NOT_FOUND', message, options);
  }
}

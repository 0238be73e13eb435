import { RedisQueueError } from './redis-queue-error.js';

/** The request was already handled (by this or another worker), so its lock cannot be prolonged. */
export class RequestAlreadyHandledError extends RedisQueueError {
  /**
   * @param message - which request and queue
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('REQUEST_HANDLED', message, options);
  }
}

import { RedisQueueError } from './redis-queue-error.js';

/** The operation exists in Crawlee's interface but a shared Redis queue cannot do it (e.g. renaming a queue). */
export class UnsupportedOperationError extends RedisQueueError {
  /**
   * @param message - what is not supported and the alternative
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('UNSUPPORTED_OPERATION', message, options);
  }
}

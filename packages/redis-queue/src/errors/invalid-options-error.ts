import { RedisQueueError } from './redis-queue-error.js';

/** An option passed to this package is not valid; nothing was written to Redis. */
export class InvalidOptionsError extends RedisQueueError {
  /**
   * @param message - which option is wrong and what it accepts
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_OPTIONS', message, options);
  }
}

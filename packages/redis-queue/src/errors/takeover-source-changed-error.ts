import { RedisQueueError } from './redis-queue-error.js';

/**
 * A takeover of a scrapy-redis list frontier (FifoQueue / LifoQueue) kept finding the list's end changed under it:
 * Scrapy workers are still pushing or popping. What was moved so far stays moved; nothing was lost.
 */
export class TakeoverSourceChangedError extends RedisQueueError {
  /**
   * @param message - which key, and what to do (stop the Scrapy fleet, then run the takeover again)
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('TAKEOVER_SOURCE_CHANGED', message, options);
  }
}

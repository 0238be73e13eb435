import { RedisQueueError } from './redis-queue-error.js';

/** A request cannot be stored (bad url, missing uniqueKey, id that does not match the uniqueKey, unserializable
 * userData such as a function, a BigInt or a circular reference). Nothing was written to Redis. */
export class InvalidRequestError extends RedisQueueError {
  /**
   * @param message - what is wrong with the request and how to fix it
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_REQUEST', message, options);
  }
}

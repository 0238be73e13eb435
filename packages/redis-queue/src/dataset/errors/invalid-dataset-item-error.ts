import { RedisQueueError } from '../../errors/redis-queue-error.js';

/** `pushData` got something that is not a JSON object (or an array of them); nothing of that call was written. */
export class InvalidDatasetItemError extends RedisQueueError {
  /**
   * @param message - which item is wrong and what a dataset item must be
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_DATASET_ITEM', message, options);
  }
}

import { RedisQueueError } from '../../errors/redis-queue-error.js';

/** An entry of a dataset list in Redis is not a JSON object (written by something other than this package). */
export class DatasetItemUnreadableError extends RedisQueueError {
  /** The Redis list holding the entry. */
  readonly key: string;
  /** The 0-based index of the entry in that list. */
  readonly index: number;

  /**
   * @param key - the Redis list
   * @param index - 0-based index of the entry
   * @param detail - why it could not be read
   */
  constructor(key: string, index: number, detail: string) {
    super(
      'DATASET_ITEM_UNREADABLE',
      `dataset entry ${index} of Redis list "${key}" is not a JSON object (${detail}); fix or remove it ` +
        `(e.g. LSET ${key} ${index} '{}'), or read the list yourself with LRANGE`,
    );
    this.key = key;
    this.index = index;
  }
}

import { RedisQueueError } from '../../errors/redis-queue-error.js';

/** The dataset does not exist in Redis (never created, or deleted). */
export class DatasetNotFoundError extends RedisQueueError {
  /**
   * @param name - the dataset id or name
   * @param keyPrefix - the key prefix searched
   */
  constructor(name: string, keyPrefix: string) {
    super(
      'DATASET_NOT_FOUND',
      `dataset "${name}" does not exist under key prefix "${keyPrefix}"; check the name and keyPrefix, or open it ` +
        'first with Dataset.open(name, { storageClient })',
    );
  }
}

import { RedisQueueError } from './redis-queue-error.js';

/** A queue was opened (or written to) with politeness settings other than the ones it was created with: with
 * politeness its available requests live in per-host queues, without it in one ordering, so mixing the two would
 * leave requests no worker takes. Open it with the settings of its creator (`RedisQueueAdmin.politenessStats()` and
 * `crawlee-redis stats` show them), or drop the queue to change them. Nothing was written. */
export class PolitenessMismatchError extends RedisQueueError {
  /**
   * @param message - the two settings and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('POLITENESS_MISMATCH', message, options);
  }
}

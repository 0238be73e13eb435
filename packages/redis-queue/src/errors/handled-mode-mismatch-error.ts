import { RedisQueueError } from './redis-queue-error.js';

/**
 * A queue was opened with a `handledRequests` mode (or a `handledBloom` sizing) other than the one it was created
 * with. The handled requests it already holds are stored in that mode and cannot be read in another one, so nothing
 * was changed: open it with the mode it has (the message names it), or drop the queue to start over in the new mode.
 */
export class HandledModeMismatchError extends RedisQueueError {
  /**
   * @param detail - the queue and both modes (from create-queue.lua)
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(detail: string, options?: ErrorOptions) {
    super(
      'HANDLED_MODE_MISMATCH',
      `${detail}. Open it with the handledRequests mode (and handledBloom sizing) it was created with, or drop the ` +
        'queue (crawlee-redis drop <queue>, or RedisQueueAdmin.drop()) to start over in the new mode; nothing was changed',
      options,
    );
  }
}

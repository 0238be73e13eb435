import { RedisQueueError } from './redis-queue-error.js';

/** An enqueue filter cannot run inside this queue's scripts (another Redis server or db, or keys on other Cluster
 * slots). Check `canAttachEnqueueFilter` first, or filter in front of the queue. */
export class EnqueueFilterIncompatibleError extends RedisQueueError {
  /**
   * @param message - why the filter cannot attach
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('ENQUEUE_FILTER_INCOMPATIBLE', message, options);
  }
}

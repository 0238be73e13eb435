import { RedisQueueError } from './redis-queue-error.js';

/**
 * The caller does not hold the lock of the request any more: it expired and was recovered, or another client locked
 * it. Crawlee's RequestQueue treats this as "skip the request"; raise the lock time (`lockSecs`, or the handler
 * timeout) when it happens often.
 */
export class LockLostError extends RedisQueueError {
  /** True when another client holds the lock now. */
  readonly lockedByOther: boolean;

  /**
   * @param message - which request and queue
   * @param lockedByOther - true when another client holds the lock now
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, lockedByOther: boolean, options?: ErrorOptions) {
    super('LOCK_LOST', message, options);
    this.lockedByOther = lockedByOther;
  }
}

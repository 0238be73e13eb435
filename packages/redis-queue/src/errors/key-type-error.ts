import { RedisQueueError } from './redis-queue-error.js';

/** A key of a queue or dataset holds another Redis type than the package writes there (Redis answered WRONGTYPE):
 * another program wrote it, or a key prefix is shared with something else. Nothing was written by the command. */
export class KeyTypeError extends RedisQueueError {
  /**
   * @param message - which queue or dataset (and key, when known) and what to do
   * @param key - the key Redis refused, when the failed command named it
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(
    message: string,
    readonly key: string | undefined,
    options?: ErrorOptions,
  ) {
    super('KEY_TYPE', message, options);
  }
}

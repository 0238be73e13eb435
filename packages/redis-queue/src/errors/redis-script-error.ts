import { RedisQueueError } from './redis-queue-error.js';

/** A queue script failed for a reason this package does not expect (a Redis error such as OOM, a CROSSSLOT key, or
 * a script bug). The message carries Redis' reply. */
export class RedisScriptError extends RedisQueueError {
  /**
   * @param message - Redis' reply and the script name
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('REDIS_SCRIPT_ERROR', message, options);
  }
}

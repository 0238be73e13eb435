import { RedisQueueError } from './redis-queue-error.js';

/** The queue's metadata vanished while clients were using it: the queue was dropped, or the Redis came back
 * without its data (a restart without persistence). Its requests are gone with it, so a worker must not carry on as
 * if the queue were merely empty: a lock call that finds nothing, an add and a request update on such a queue throw
 * this (nothing written; the queue is never re-created under its workers). Code `QUEUE_MISSING`. */
export class QueueMissingError extends RedisQueueError {
  /** What to do, after what went missing: one text for the script replies and the client's own epoch check. */
  static readonly ADVICE =
    'the requests it held are lost with it: stop the workers and start the crawl again (or restore Redis). ' +
    'To survive a Redis restart, run Redis with persistence (appendonly yes)';

  /**
   * @param message - what is missing and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super('QUEUE_MISSING', message, options);
  }
}

import { RedisQueueError } from './redis-queue-error.js';

/** A start-URL feed key holds a Redis type the feed cannot read (a hash, a string, a stream, or not the type set in
 * `startUrls.type`); nothing was read from it or written to the queue. */
export class StartUrlFeedTypeError extends RedisQueueError {
  /** The feed key. */
  readonly key: string;
  /** The key's Redis type (`TYPE`), e.g. `hash`. */
  readonly actualType: string;

  /**
   * @param key - the feed key
   * @param actualType - what `TYPE` reported
   * @param expected - what the feed settings allow
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(key: string, actualType: string, expected: string, options?: ErrorOptions) {
    super(
      'START_URL_FEED_TYPE',
      `start-URL feed key "${key}" is a Redis ${actualType}, but the feed reads ${expected}: ` +
        `set startUrls.type to the key's layout ('list', 'set', 'zset' or 'auto'), or point startUrls.key at a list, set or sorted set`,
      options,
    );
    this.key = key;
    this.actualType = actualType;
  }
}

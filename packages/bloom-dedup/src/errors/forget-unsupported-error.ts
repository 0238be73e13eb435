import { DedupError } from './dedup-error.js';

/**
 * `forget()` was called on a store that cannot delete a key: a Bloom filter (its bits are shared between keys, so
 * clearing one key's bits would make other seen keys read as new). Nothing was changed.
 */
export class ForgetUnsupportedError extends DedupError {
  /**
   * @param store - the store's class name
   * @param count - how many keys were to be forgotten
   */
  constructor(store: string, count: number) {
    super(
      'FORGET_UNSUPPORTED',
      `${store} cannot forget keys (asked for ${count}): a Bloom filter cannot delete a key, its bits are shared with ` +
        `other keys. Use RedisSetDedupStore (an exact set, forget = SREM) for keys you may need to forget, or rotate ` +
        `the filter: start a new one (another key or snapshot) and add the keys you still want seen.`,
    );
  }
}

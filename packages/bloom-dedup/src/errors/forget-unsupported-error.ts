import { DedupError } from './dedup-error.js';

/**
 * `forget()` was called on a store that cannot delete a key, a Bloom filter (its bits are shared between keys, so
 * clearing one key's bits would make other seen keys read as new), or `withDedup({ forgetFailed: true })` was given
 * such a store or one without `forget()`. Nothing was changed.
 */
export class ForgetUnsupportedError extends DedupError {
  /**
   * @param store - the store's class name
   * @param asked - what needed it: a number of keys (`forget`), or a description (e.g. `withDedup({ forgetFailed: true })`)
   */
  constructor(store: string, asked: number | string) {
    const what = typeof asked === 'number' ? `asked to forget ${asked} keys` : `${asked} needs forget()`;
    super(
      'FORGET_UNSUPPORTED',
      `${store} cannot forget keys (${what}): a Bloom filter cannot delete a key (its bits are shared with ` +
        `other keys), nor can a store without forget(). Use RedisSetDedupStore (an exact set, forget = SREM) for keys you may need to forget, or rotate ` +
        `the filter: start a new one (another key or snapshot) and add the keys you still want seen.`,
    );
  }
}

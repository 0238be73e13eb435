import { hasHashTag, hashTagOf, sameSlotKey } from '@crawlee-distributed/redis-kit';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';

/** Redis keys of one Bloom filter. */
export interface BloomKeys {
  /** Hash holding the filter's parameters and the shared counters (itemsAdded, filtered). */
  meta: string;
  /** One Redis string per block. */
  blocks: string[];
}

/**
 * Rejects the keys whose derived keys another key also derives: a key that is nothing but a hash tag (`{crawl}`:
 * its `{crawl}:meta`, `{crawl}:bits`, `{crawl}:stats` are those of the key `crawl`), and a key without a hash tag
 * that contains `}` (`a}` wraps to `{a}}:meta`, whose hash tag is `a`: the keys of `{a}}`, on another slot than
 * the key itself).
 *
 * @param key - the store's key
 * @throws {@link InvalidDedupOptionsError} for a bare hash tag or an untagged key with `}`
 */
export function assertUnambiguousStoreKey(key: string): void {
  if (!hasHashTag(key) && key.includes('}')) {
    throw new InvalidDedupOptionsError(
      `key ${JSON.stringify(key)} contains "}" but no hash tag: its derived keys ({key}:meta...) would not hash like the key ` +
        'and could be those of another key. Drop the "}" or give the key a hash tag, e.g. "{crawl}:bloom"',
    );
  }
  if (hasHashTag(key) && key === `{${hashTagOf(key)}}`) {
    throw new InvalidDedupOptionsError(
      `key ${JSON.stringify(key)} is only a hash tag: its keys would be those of the key ${JSON.stringify(hashTagOf(key))}. ` +
        `Use ${JSON.stringify(hashTagOf(key))} or add a name after the tag, e.g. ${JSON.stringify(`${key}:bloom`)}`,
    );
  }
}

/**
 * Key layout. A user key with a hash tag (`{crawl}:bloom`) keeps every key in that slot (`<key>:meta`, `<key>:bits`,
 * `<key>:bits:<i>`), so one script covers any batch and the filter can join a queue script with the same tag. A key
 * without one puts a one-block filter next to its meta (`{key}:bits`, `{key}:meta`) and spreads more blocks over
 * slots as `{key:bits:<i>}`. Distinct accepted keys never share a derived key: tagged keys only append suffixes,
 * untagged ones wrap the whole key, bare hash tags are rejected ({@link assertUnambiguousStoreKey}), and the block
 * form ends with `}` where every other form ends with a suffix. (Up to 0.1 the spread blocks were `{key:<i>}:bits`,
 * which a one-block filter named `key:<i>` also used; see `legacyBlockKey`.)
 */
export function bloomKeys(key: string, blocks: number): BloomKeys {
  const meta = sameSlotKey(key, 'meta');
  if (blocks === 1) return { meta, blocks: [sameSlotKey(key, 'bits')] };
  const tagged = hasHashTag(key);
  return {
    meta,
    blocks: Array.from({ length: blocks }, (_, i) => (tagged ? `${key}:bits:${i}` : `{${key}:bits:${i}}`)),
  };
}

/** The 0.1 key of block `i` of a spread (untagged, multi-block) filter, for the upgrade check.
 * @param key - the store's key
 * @param i - block index */
export function legacyBlockKey(key: string, i: number): string {
  return `{${key}:${i}}:bits`;
}

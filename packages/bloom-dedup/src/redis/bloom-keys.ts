import { hasHashTag, sameSlotKey } from '@crawlee-distributed/redis-kit';

/** Redis keys of one Bloom filter. */
export interface BloomKeys {
  /** Hash holding the filter's parameters and the shared counters (itemsAdded, filtered). */
  meta: string;
  /** One Redis string per block. */
  blocks: string[];
}

/**
 * Key layout. A user key with a hash tag (`{crawl}:bloom`) keeps every key in that slot, so one script covers any
 * batch and the filter can join a queue script with the same tag. A key without one spreads blocks over
 * slots (`{key:i}:bits`), while a one-block filter stays next to its meta (`{key}:bits`, `{key}:meta`).
 */
export function bloomKeys(key: string, blocks: number): BloomKeys {
  const meta = sameSlotKey(key, 'meta');
  if (blocks === 1) return { meta, blocks: [sameSlotKey(key, 'bits')] };
  const tagged = hasHashTag(key);
  return {
    meta,
    blocks: Array.from({ length: blocks }, (_, i) => (tagged ? `${key}:bits:${i}` : `{${key}:${i}}:bits`)),
  };
}

import bloomFilters from 'bloom-filters';
import { bitOffsets, bitPosition, digestBytes } from '../bloom/bit-indexes.js';

type HashableInput = string | ArrayBuffer | Buffer;

/**
 * A bloom-filters `Hashing` that derives the k indexes from the key's SHA-1 bytes (scheme sha1-km64-v1, the same as
 * the Redis store) instead of two xxhash64 passes in pure JS: about 10x faster, and indexes past 2^32 are exact
 * (bloom-filters' own hashes keep only 32 bits). bloom-filters does not serialize a custom hashing; the store
 * re-attaches it after every restore.
 */
export class FingerprintHashing extends bloomFilters.Hashing {
  override getIndexes(element: HashableInput, size: number, hashCount: number): number[] {
    const key = typeof element === 'string' ? element : Buffer.from(element as ArrayBuffer).toString('utf8');
    return bitOffsets(bitPosition(digestBytes(key), size, 1), size, hashCount);
  }

  override getDistinctIndexes(element: HashableInput, size: number, hashCount: number): number[] {
    return [...new Set(this.getIndexes(element, size, hashCount))];
  }
}

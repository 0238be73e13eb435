import bloomFilters from 'bloom-filters';
import { bitOffsets, bitPosition, digestInto, hexPositionInto, type BitPosition } from '../bloom/bit-indexes.js';

type HashableInput = string | ArrayBuffer | Buffer;

/**
 * A bloom-filters `Hashing` that derives the k indexes from the key's SHA-1 bytes (scheme sha1-km64-v1, the same as
 * the Redis store) instead of two xxhash64 passes in pure JS: about 10x faster, and indexes past 2^32 are exact
 * (bloom-filters' own hashes keep only 32 bits). bloom-filters does not serialize a custom hashing; the store
 * re-attaches it after every restore.
 */
export class FingerprintHashing extends bloomFilters.Hashing {
  private readonly digest = new Uint8Array(20);
  private readonly position: BitPosition = { block: 0, a: 0, b: 1 };

  override getIndexes(element: HashableInput, size: number, hashCount: number): number[] {
    return this.indexesInto(element, size, hashCount, new Array<number>(hashCount));
  }

  /**
   * {@link FingerprintHashing.getIndexes} into a caller's array (no allocation per key on the hot path).
   * @param out - receives the k indexes
   */
  indexesInto(element: HashableInput, size: number, hashCount: number, out: number[]): number[] {
    const key = typeof element === 'string' ? element : Buffer.from(element as ArrayBuffer).toString('utf8');
    const position = hexPositionInto(key, size, this.position) ? this.position : bitPosition(digestInto(key, this.digest), size, 1);
    return bitOffsets(position, size, hashCount, out);
  }

  override getDistinctIndexes(element: HashableInput, size: number, hashCount: number): number[] {
    return [...new Set(this.getIndexes(element, size, hashCount))];
  }
}

import bloomFilters from 'bloom-filters';
import { FingerprintHashing } from './fingerprint-hashing.js';

/**
 * bloom-filters' `BloomFilter` whose k indexes come from {@link FingerprintHashing} (scheme sha1-km64-v1, the same as
 * the Redis store). A subclass, because bloom-filters has no public way to choose the hashing: its members
 * (`_hashing`, `_filter`) are touched only here, by the subclass they are meant for, never by other code.
 *
 * Every way of building one keeps the custom hashing: the constructor sets it, and {@link FingerprintBloomFilter.fromJSON}
 * returns a `FingerprintBloomFilter` (bloom-filters' own `fromJSON` builds a plain `BloomFilter` with its default
 * xxhash, which would answer "not seen" for almost every key added before the export).
 */
export class FingerprintBloomFilter extends bloomFilters.BloomFilter {
  private readonly fingerprintHashing: FingerprintHashing;
  private readonly scratch: number[] = [];

  /**
   * @param bits - filter size in bits (m)
   * @param hashes - bits set per key (k)
   */
  constructor(bits: number, hashes: number) {
    super(bits, hashes);
    this.fingerprintHashing = new FingerprintHashing();
    this._hashing = this.fingerprintHashing;
  }

  /**
   * Tests and sets one key's bits in one pass.
   * @param key - a dedup key (a 40-hex fingerprint uses its own bytes; other strings are SHA-1 hashed first)
   * @returns how many of its bits were 0 (and are now 1); 0 means the key was (probably) seen
   */
  testAndSet(key: string): number {
    const bitSet = this._filter;
    const offsets = this.fingerprintHashing.indexesInto(key, this._size, this._nbHashes, this.scratch);
    let flipped = 0;
    for (let i = 0; i < offsets.length; i++) {
      const offset = offsets[i] as number;
      if (!bitSet.has(offset)) {
        bitSet.add(offset);
        flipped++;
      }
    }
    return flipped;
  }

  /** The raw bit array (bit i is bit `i % 8` of byte `i >> 3`, bloom-filters' `BitSet` layout); read only. */
  get bytes(): Uint8Array {
    return this._filter.array;
  }

  /**
   * Replaces every bit with a saved copy of {@link FingerprintBloomFilter.bytes}.
   * @param bytes - exactly `ceil(bits / 8)` bytes
   * @throws RangeError when the length differs (callers check it first and throw their own typed error)
   */
  loadBytes(bytes: Uint8Array): void {
    if (bytes.length !== this._filter.array.length) {
      throw new RangeError(`expected ${this._filter.array.length} bytes of bits, got ${bytes.length}`);
    }
    this._filter.array.set(bytes);
  }

  /**
   * Rebuilds a filter exported with bloom-filters' `saveAsJSON()`, keeping this class's hashing.
   * @param json - the exported object
   * @returns a `FingerprintBloomFilter` with the same size, hash count, seed and bits
   * @throws Error (bloom-filters' own) when the object is not an exported `BloomFilter`
   */
  static override fromJSON(json: JSON): FingerprintBloomFilter {
    // bloom-filters validates the export; its result is a plain BloomFilter, so only its public reads are used.
    const plain = bloomFilters.BloomFilter.fromJSON(json) as InstanceType<typeof bloomFilters.BloomFilter>;
    const data = json as unknown as { _nbHashes: number; _filter: { size: number; content: string } | number[] };
    const filter = new FingerprintBloomFilter(plain.size, data._nbHashes);
    filter.seed = plain.seed;
    const exported = data._filter;
    if (Array.isArray(exported)) {
      exported.forEach((value, index) => value !== 0 && filter._filter.add(index));
    } else {
      filter.loadBytes(bloomFilters.BitSet.import(exported).array);
    }
    return filter;
  }
}

import { checkStoreOptionNames, MEMORY_BLOOM_OPTIONS } from '../known-store-options.js';
import { Configuration, log } from 'crawlee';
import {
  bloomParameters,
  estimatedFalsePositiveRate,
  type BloomParameters,
} from '../bloom/parameters.js';
import type { DedupStats, DedupStore } from '../dedup-store.js';
import { IncompatibleFilterError } from '../errors/incompatible-filter-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { StoreClosedError } from '../errors/store-closed-error.js';
import { ForgetUnsupportedError } from '../errors/forget-unsupported-error.js';
import { FingerprintBloomFilter } from './fingerprint-bloom-filter.js';
import {
  decodeSnapshot,
  describeTarget,
  encodeSnapshot,
  readSnapshot,
  writeSnapshot,
  type SnapshotTarget,
} from './snapshot.js';

/** Largest in-memory filter: Node 20 caps a Uint8Array at 2^32 bytes. */
export const MAX_MEMORY_BITS = 2 ** 35;

/** Default `maxFilterBytes` of {@link MemoryBloomDedupStore}: 2 GiB of this process's memory. */
export const DEFAULT_MAX_MEMORY_FILTER_BYTES = 2 * 2 ** 30;

/** Options of {@link MemoryBloomDedupStore}. */
export interface MemoryBloomDedupStoreOptions {
  /** Items the filter is sized for; a positive integer. */
  capacity: number;
  /** Target false-positive rate at capacity, 0 \< errorRate \< 1. */
  errorRate: number;
  /**
   * Where {@link MemoryBloomDedupStore.open} restores from and {@link MemoryBloomDedupStore.save} writes to.
   * With `autoSave` it is also written on Crawlee's `persistState` events and on `close()`.
   */
  snapshot?: SnapshotTarget;
  /**
   * Largest filter accepted, in bytes; a larger one throws {@link FilterTooLargeError} before anything is allocated.
   * At most 4 GiB (2^35 bits, one Uint8Array).
   * @defaultValue 2 GiB ({@link DEFAULT_MAX_MEMORY_FILTER_BYTES})
   */
  maxFilterBytes?: number;
  /** Save on every `persistState` event of Crawlee's event manager and on close. @defaultValue true when `snapshot` is set */
  autoSave?: boolean;
}

/**
 * In-process Bloom filter on `bloom-filters`' `BloomFilter`, sized from capacity and error rate
 * (m = -n ln p / (ln 2)^2, k = round((m / n) ln 2)). The filter is a {@link FingerprintBloomFilter} (a subclass:
 * indexes from the key's SHA-1 bytes through {@link FingerprintHashing}, one pass per key tests and sets the bits);
 * this store uses only its public methods.
 * Saved to and restored from a Crawlee key-value store or a file so a single-process crawl resumes. Logs a warning
 * once the estimated false-positive rate passes the target.
 */
export class MemoryBloomDedupStore implements DedupStore {
  /** Filter shape. */
  readonly parameters: BloomParameters;
  /** The bloom-filters object: a `BloomFilter` subclass whose hashing is a {@link FingerprintHashing}. */
  readonly filter: FingerprintBloomFilter;
  /** Always false: a Bloom filter cannot delete a key (see {@link MemoryBloomDedupStore.forget}). */
  readonly canForget = false;
  private readonly options: MemoryBloomDedupStoreOptions;
  private itemsAdded = 0;
  private filtered = 0;
  private bitsSet = 0;
  private warned = false;
  private closed = false;
  private persistListener?: () => Promise<void>;

  /**
   * @param options - see {@link MemoryBloomDedupStoreOptions}
   * @throws {@link InvalidDedupOptionsError} when capacity is not a positive integer, errorRate is outside (0, 1),
   * or maxFilterBytes is not a positive number of at most 4 GiB
   * @throws {@link FilterTooLargeError} when the filter would exceed `maxFilterBytes` (checked before allocating)
   */
  constructor(options: MemoryBloomDedupStoreOptions) {
    checkStoreOptionNames('MemoryBloomDedupStore', options, MEMORY_BLOOM_OPTIONS);
    this.options = options;
    // Only undefined means "the default": a null is a bad value, not a missing one.
    const maxFilterBytes = options?.maxFilterBytes === undefined ? DEFAULT_MAX_MEMORY_FILTER_BYTES : options.maxFilterBytes;
    if (typeof maxFilterBytes !== 'number' || !(maxFilterBytes > 0 && maxFilterBytes <= MAX_MEMORY_BITS / 8)) {
      throw new InvalidDedupOptionsError(
        `maxFilterBytes must be a positive number of at most 4 GiB (one Uint8Array), got ${String(maxFilterBytes)}; ` +
          `use RedisBloomDedupStore for larger filters`,
      );
    }
    this.parameters = bloomParameters({
      capacity: options?.capacity,
      errorRate: options?.errorRate,
      blocks: 1,
      maxBlockBits: MAX_MEMORY_BITS,
      maxFilterBytes,
    });
    this.filter = new FingerprintBloomFilter(this.parameters.bits, this.parameters.hashes);
  }

  /**
   * Creates a store and restores it from `options.snapshot` when a snapshot exists there.
   * @throws {@link IncompatibleFilterError} when the snapshot was saved with other capacity/errorRate
   * @throws {@link InvalidSnapshotError} when the snapshot cannot be read
   */
  static async open(options: MemoryBloomDedupStoreOptions): Promise<MemoryBloomDedupStore> {
    const store = new MemoryBloomDedupStore(options);
    if (options.snapshot) {
      await store.restore(options.snapshot);
      if (options.autoSave ?? true) store.enableAutoSave();
    }
    return store;
  }

  private enableAutoSave(): void {
    const target = this.options.snapshot as SnapshotTarget;
    this.persistListener = () =>
      this.save(target).catch((error: unknown) => log.warning(`crawlee-bloom-dedup: saving the filter failed: ${String(error)}`));
    Configuration.getEventManager().on('persistState', this.persistListener);
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError('MemoryBloomDedupStore');
  }

  /**
   * Synchronous {@link MemoryBloomDedupStore.add} (the filter lives in this process).
   * @param keys - dedup keys
   * @returns per key, `true` when it was new
   */
  addSync(keys: readonly string[]): boolean[] {
    this.ensureOpen();
    const result = new Array<boolean>(keys.length);
    let added = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (typeof key !== 'string') throw new InvalidDedupOptionsError(`dedup keys must be strings, got ${typeof key}`);
      const flipped = this.filter.testAndSet(key);
      this.bitsSet += flipped;
      const isNew = flipped > 0;
      result[i] = isNew;
      if (isNew) added++;
    }
    this.itemsAdded += added;
    if (added > 0) this.warnWhenOverTarget();
    return result;
  }

  /**
   * Synchronous {@link MemoryBloomDedupStore.has}.
   * @param keys - dedup keys
   */
  hasSync(keys: readonly string[]): boolean[] {
    this.ensureOpen();
    return keys.map((key) => this.filter.has(key));
  }

  /**
   * Tests and sets the keys' bits.
   * @param keys - dedup keys (40-hex fingerprints use their own bytes; other strings are SHA-1 hashed first)
   * @returns per key, `true` when it was new
   */
  add(keys: readonly string[]): Promise<boolean[]> {
    return Promise.resolve().then(() => this.addSync(keys));
  }

  /**
   * Reads the keys' bits (through bloom-filters' own `has`).
   * @param keys - dedup keys
   */
  has(keys: readonly string[]): Promise<boolean[]> {
    return Promise.resolve().then(() => this.hasSync(keys));
  }

  private warnWhenOverTarget(): void {
    if (this.warned) return;
    const estimated = estimatedFalsePositiveRate(this.parameters, this.itemsAdded);
    if (estimated <= this.parameters.errorRate) return;
    this.warned = true;
    log.warning(
      `crawlee-bloom-dedup: the in-memory Bloom filter holds ${this.itemsAdded} items (capacity ${this.parameters.capacity}); ` +
        `its estimated false-positive rate ${estimated.toExponential(2)} is above the target ${this.parameters.errorRate}. ` +
        `New URLs are now more likely to be skipped as duplicates: start a larger filter (higher capacity).`,
    );
  }

  /** Counters, the exact fill ratio (bits set are counted as they flip) and the estimated false-positive rate. */
  stats(): Promise<DedupStats> {
    const p = this.parameters;
    return Promise.resolve({
      itemsAdded: this.itemsAdded,
      filtered: this.filtered,
      fillRatio: this.bitsSet / p.bits,
      estimatedFalsePositiveRate: estimatedFalsePositiveRate(p, this.itemsAdded),
      bytesUsed: this.filter.bytes.byteLength,
      capacity: p.capacity,
      errorRate: p.errorRate,
      bits: p.bits,
      hashes: p.hashes,
    });
  }

  /**
   * A Bloom filter cannot forget: a key's k bits are shared with other keys, so clearing them would make keys that
   * were seen read as new (and they would be fetched again), and leaving them set keeps the key seen.
   * @param keys - dedup keys
   * @throws {@link ForgetUnsupportedError} always (as a rejected promise); use an exact store (`RedisSetDedupStore`) for
   * keys you may need to forget, or rotate the filter: start a new one and add the keys you still want
   */
  forget(keys: readonly string[]): Promise<boolean[]> {
    return Promise.reject(new ForgetUnsupportedError('MemoryBloomDedupStore', keys.length));
  }

  /**
   * Adds to the "filtered" counter.
   * @param count - requests filtered
   */
  recordFiltered(count: number): Promise<void> {
    if (count > 0) this.filtered += count;
    return Promise.resolve();
  }

  /**
   * Writes the filter (parameters, counters, raw bits).
   * @param target - key-value store record or file @defaultValue `options.snapshot`
   * @throws {@link InvalidDedupOptionsError} when there is no target
   */
  async save(target: SnapshotTarget | undefined = this.options.snapshot): Promise<void> {
    if (!target) throw new InvalidDedupOptionsError('save() needs a snapshot target (a key-value store or a file)');
    const p = this.parameters;
    const data = encodeSnapshot(
      {
        format: 'crawlee-bloom-dedup/memory@1',
        capacity: p.capacity,
        errorRate: p.errorRate,
        bits: p.bits,
        hashes: p.hashes,
        indexScheme: p.indexScheme,
        itemsAdded: this.itemsAdded,
        filtered: this.filtered,
        bitsSet: this.bitsSet,
      },
      this.filter.bytes,
    );
    await writeSnapshot(target, data);
  }

  /**
   * Replaces the bits and counters with a saved snapshot; does nothing when there is none.
   * @param target - key-value store record or file
   * @returns true when a snapshot was loaded
   * @throws {@link IncompatibleFilterError} when the snapshot has other bits, hashes or index scheme
   * @throws {@link InvalidSnapshotError} when it cannot be read
   */
  async restore(target: SnapshotTarget): Promise<boolean> {
    this.ensureOpen();
    const data = await readSnapshot(target);
    if (!data) return false;
    const where = describeTarget(target);
    const { header, bits } = decodeSnapshot(data, where);
    const p = this.parameters;
    for (const field of ['bits', 'hashes', 'indexScheme'] as const) {
      if (header[field] !== p[field]) throw new IncompatibleFilterError(where, field, String(header[field]), String(p[field]));
    }
    // The bits go into this store's own FingerprintBloomFilter, so its hashing is the one they were set with.
    this.filter.loadBytes(bits);
    this.itemsAdded = header.itemsAdded;
    this.filtered = header.filtered;
    this.bitsSet = header.bitsSet;
    this.warned = false;
    return true;
  }

  /** Saves to the snapshot target when auto-save is on, and stops listening to `persistState`. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.persistListener) {
      Configuration.getEventManager().off('persistState', this.persistListener);
      await this.save();
    }
    this.closed = true;
  }
}

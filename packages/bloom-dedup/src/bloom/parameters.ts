import { inspect } from 'node:util';
import { bloomFalsePositiveRate, bloomFillRatio, bloomShape, MAX_REDIS_BLOCK_BITS } from '@crawlee-distributed/redis-kit';
import { FilterTooLargeError } from '../errors/filter-too-large-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { INDEX_SCHEME } from './bit-indexes.js';

/** Largest bit count of one Redis string: offsets 0 .. 2^32 - 1 (512 MiB at the default proto-max-bulk-len). */
export { MAX_REDIS_BLOCK_BITS };

/**
 * Default limit on a filter's total size: 16 GiB. A filter for 1e9 keys at p = 1e-6 (about 3.6 GB) fits; a
 * mistyped capacity (1e15) is refused before one byte is allocated.
 */
export const DEFAULT_MAX_FILTER_BYTES = 16 * 2 ** 30;

/** Most blocks a filter may have, whatever `maxFilterBytes` allows (each block is one Redis key). */
export const MAX_BLOCKS = 65_536;

/** Shape of a Bloom filter, derived from capacity and error rate. */
export interface BloomParameters {
  /** Items the filter is sized for. */
  capacity: number;
  /** Target false-positive rate once `capacity` items are in. */
  errorRate: number;
  /** Number of hash functions (bits set per key), k. */
  hashes: number;
  /** Number of independent blocks; each key's k bits live in one block. */
  blocks: number;
  /** Bits per block (a multiple of 8). */
  blockBits: number;
  /** Total bits, `blocks * blockBits`. */
  bits: number;
  /** How bit indexes are derived from a key (see `bit-indexes.ts`). */
  indexScheme: string;
}

/** Options of {@link bloomParameters}. */
export interface BloomSizing {
  /** Items the filter must hold at `errorRate`; a positive integer. */
  capacity: number;
  /** Target false-positive rate, 0 \< errorRate \< 1. */
  errorRate: number;
  /** Number of blocks. @defaultValue the fewest blocks of at most `maxBlockBits` bits */
  blocks?: number;
  /** Upper bound of one block. @defaultValue 2^32 (one Redis string) */
  maxBlockBits?: number;
  /** Upper bound of the whole filter, in bytes. @defaultValue {@link DEFAULT_MAX_FILTER_BYTES} (16 GiB) */
  maxFilterBytes?: number;
}

/** Validates a `maxFilterBytes` option: a positive number (Infinity allowed; the block count stays capped). */
export function validateMaxFilterBytes(maxFilterBytes: unknown): void {
  if (maxFilterBytes === undefined) return;
  if (typeof maxFilterBytes !== 'number' || Number.isNaN(maxFilterBytes) || maxFilterBytes <= 0) {
    throw new InvalidDedupOptionsError(`maxFilterBytes must be a positive number of bytes (Infinity: no limit), got ${inspect(maxFilterBytes)}`);
  }
}

/** Validates capacity and error rate the way every store needs (bloom-filters accepts 0, NaN and p outside (0,1) silently). */
export function validateCapacityAndErrorRate(capacity: unknown, errorRate: unknown): void {
  if (typeof capacity !== 'number' || !Number.isSafeInteger(capacity) || capacity < 1) {
    throw new InvalidDedupOptionsError(`capacity must be a positive integer, got ${String(capacity)}`);
  }
  if (typeof errorRate !== 'number' || !Number.isFinite(errorRate) || errorRate <= 0 || errorRate >= 1) {
    throw new InvalidDedupOptionsError(`errorRate must be a number with 0 < errorRate < 1, got ${String(errorRate)}`);
  }
}

/**
 * Sizes a Bloom filter: m = ceil(-n ln p / (ln 2)^2) bits, k = max(1, round((m / n) ln 2)) hashes
 * (the textbook optimum), split into blocks of at most `maxBlockBits` bits.
 *
 * @param sizing - capacity, error rate and optional block count
 * @returns the filter's parameters
 * @throws {@link InvalidDedupOptionsError} for a capacity that is not a positive integer, p outside (0, 1) or a bad block count
 * Everything is computed arithmetically (nothing sized by the block count is allocated), so an absurd capacity
 * is refused in microseconds.
 *
 * @throws {@link FilterTooLargeError} when the filter would exceed `maxFilterBytes` or {@link MAX_BLOCKS} blocks, or
 * an explicit `blocks` leaves a block above `maxBlockBits`
 */
export function bloomParameters(sizing: BloomSizing): BloomParameters {
  const { capacity, errorRate } = sizing;
  validateCapacityAndErrorRate(capacity, errorRate);
  validateMaxFilterBytes(sizing.maxFilterBytes);
  const maxBlockBits = sizing.maxBlockBits ?? MAX_REDIS_BLOCK_BITS;
  const maxFilterBytes = sizing.maxFilterBytes ?? DEFAULT_MAX_FILTER_BYTES;
  if (sizing.blocks !== undefined && (!Number.isSafeInteger(sizing.blocks) || sizing.blocks < 1 || sizing.blocks > MAX_BLOCKS)) {
    throw new InvalidDedupOptionsError(`blocks must be an integer from 1 to 65536, got ${String(sizing.blocks)}`);
  }
  // The kit's sizing, shared with the queue's 'bits' handled store: m, k, and byte-aligned blocks of >= 64 bits.
  const { hashes, blocks, blockBits } = bloomShape(capacity, errorRate, maxBlockBits, sizing.blocks);
  // The total is checked first: it is the limit users meet (a huge capacity), and the block count may be absurd too.
  const bytes = (blockBits / 8) * blocks;
  if (bytes > maxFilterBytes) throw new FilterTooLargeError({ kind: 'total', bytes, blocks, maxFilterBytes });
  if (blocks > MAX_BLOCKS) throw new FilterTooLargeError({ kind: 'blocks', blocks, maxBlocks: MAX_BLOCKS });
  if (blockBits > maxBlockBits) throw new FilterTooLargeError({ kind: 'block', blockBits, blocks });
  return { capacity, errorRate, hashes, blocks, blockBits, bits: blockBits * blocks, indexScheme: INDEX_SCHEME };
}

/**
 * Estimated false-positive rate after `items` insertions: (1 - e^(-k n / m))^k for one block of m bits
 * (blocks are independent filters of equal share). Computed here because bloom-filters' `rate()` uses the
 * number of set bits where the item count belongs.
 */
export function estimatedFalsePositiveRate(p: Pick<BloomParameters, 'hashes' | 'bits'>, items: number): number {
  return bloomFalsePositiveRate(p, items);
}

/** Expected fraction of bits set after `items` insertions: 1 - e^(-k n / m). */
export function expectedFillRatio(p: Pick<BloomParameters, 'hashes' | 'bits'>, items: number): number {
  return bloomFillRatio(p, items);
}

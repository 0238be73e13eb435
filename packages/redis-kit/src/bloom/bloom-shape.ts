/** One Redis string holds at most 2^32 bits: the largest block a Redis-backed filter can use. */
export const MAX_REDIS_BLOCK_BITS = 2 ** 32;

/** The shape of a blocked Bloom filter: k hashes over `blocks` independent blocks of `blockBits` bits each. */
export interface BloomShape {
  hashes: number;
  blocks: number;
  blockBits: number;
}

/**
 * The textbook optimum for n items at false-positive rate p: m = ceil(-n ln p / (ln 2)^2) bits and
 * k = max(1, round(m/n ln 2)) hashes, split into the fewest blocks of at most `maxBlockBits` (or exactly `blocks`),
 * each a multiple of 8 bits (byte-aligned: Redis strings, Uint8Array) and at least 64 (room for double hashing).
 * The one sizing both crawlee-bloom-dedup's filters and the queue's 'bits' handled store use.
 *
 * @param capacity - n, items expected
 * @param errorRate - p, 0 < p < 1
 * @param maxBlockBits - largest block in bits @defaultValue 2^32 ({@link MAX_REDIS_BLOCK_BITS})
 * @param blocks - a fixed block count instead of the fewest
 */
export function bloomShape(capacity: number, errorRate: number, maxBlockBits = MAX_REDIS_BLOCK_BITS, blocks?: number): BloomShape {
  const optimalBits = Math.ceil((-capacity * Math.log(errorRate)) / Math.LN2 ** 2);
  const hashes = Math.max(1, Math.round((optimalBits / capacity) * Math.LN2));
  const count = blocks ?? Math.ceil(optimalBits / maxBlockBits);
  return { hashes, blocks: count, blockBits: Math.max(64, Math.ceil(optimalBits / count / 8) * 8) };
}

/**
 * Estimated false-positive rate after `items` insertions: (1 - e^(-k n / m))^k, with m the bits of all blocks
 * (blocks are independent filters of equal share, so one block's m and share of n give the same).
 * @param shape - k and m (`bits`, or `blocks` x `blockBits`)
 * @param items - insertions so far
 */
export function bloomFalsePositiveRate(shape: { hashes: number; bits: number }, items: number): number {
  return bloomFillRatio(shape, items) ** shape.hashes;
}

/** Expected fraction of bits set after `items` insertions: 1 - e^(-k n / m). */
export function bloomFillRatio(shape: { hashes: number; bits: number }, items: number): number {
  return 1 - Math.exp((-shape.hashes * items) / shape.bits);
}

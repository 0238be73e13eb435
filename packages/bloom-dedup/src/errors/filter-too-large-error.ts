import { DedupError } from './dedup-error.js';

/**
 * A Bloom filter whose blocks would exceed 2^32 bits (the largest bit offset one Redis string accepts, 512 MiB).
 * Thrown at construction, never at the first insert.
 */
export class FilterTooLargeError extends DedupError {
  constructor(blockBits: number, blocks: number) {
    super(
      'FILTER_TOO_LARGE',
      `A Bloom filter block of ${blockBits} bits (${blocks} block(s)) exceeds the 2^32-bit limit of one Redis string. ` +
        `Leave \`blocks\` unset (it is then derived from capacity and error rate) or raise it to at least ` +
        `${Math.ceil((blockBits * blocks) / 2 ** 32)}.`,
    );
  }
}

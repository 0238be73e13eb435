import { DedupError } from './dedup-error.js';

const GIB = 2 ** 30;

/** How a filter came out too large; the numbers the message is built from. */
export type FilterTooLargeDetail =
  | { kind: 'block'; blockBits: number; blocks: number }
  | { kind: 'total'; bytes: number; blocks: number; maxFilterBytes: number }
  | { kind: 'blocks'; blocks: number; maxBlocks: number };

function gib(bytes: number): string {
  const value = bytes / GIB;
  return `${value < 1000 ? value.toFixed(2) : Math.round(value).toLocaleString('en-US')} GiB`;
}

function describe(detail: FilterTooLargeDetail): string {
  switch (detail.kind) {
    case 'block':
      return (
        `A Bloom filter block of ${detail.blockBits} bits (${detail.blocks} block(s)) exceeds the 2^32-bit limit of one ` +
        `Redis string. Leave \`blocks\` unset (it is then derived from capacity and error rate) or raise it to at least ` +
        `${Math.ceil((detail.blockBits * detail.blocks) / 2 ** 32)}.`
      );
    case 'total':
      return (
        `This Bloom filter would need ${gib(detail.bytes)} (${detail.blocks} block(s)), above the limit ` +
        `maxFilterBytes = ${gib(detail.maxFilterBytes)}. Lower \`capacity\`, raise \`errorRate\`, or pass a higher ` +
        `\`maxFilterBytes\` if the memory really is there. Nothing was allocated or written.`
      );
    case 'blocks':
      return (
        `This Bloom filter would need ${detail.blocks} blocks, above the limit of ${detail.maxBlocks}. ` +
        `Lower \`capacity\` or raise \`errorRate\`. Nothing was allocated or written.`
      );
  }
}

/**
 * A Bloom filter too large to create: a block above 2^32 bits (the largest bit offset one Redis string accepts,
 * 512 MiB), a total size above the store's `maxFilterBytes`, or more blocks than a filter may have.
 * Thrown at construction, before anything is allocated or written, never at the first insert.
 */
export class FilterTooLargeError extends DedupError {
  /** Total size the filter would have had, in bytes (NaN when the failure is about one block). */
  readonly bytes: number;

  constructor(detail: FilterTooLargeDetail) {
    super('FILTER_TOO_LARGE', describe(detail));
    this.bytes = detail.kind === 'total' ? detail.bytes : NaN;
  }
}

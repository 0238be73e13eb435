import { DedupError } from './dedup-error.js';

/**
 * The stored filter was built with other parameters (bits, hashes, blocks, index scheme or fingerprint recipe).
 * Reusing its bits would silently give false negatives or a wrong false-positive rate, so the store refuses.
 */
export class IncompatibleFilterError extends DedupError {
  /** Parameter that differs. */
  readonly field: string;
  /** Value stored next to the filter. */
  readonly stored: string;
  /** Value this store was configured with. */
  readonly requested: string;

  /**
   * @param where - the filter's key
   * @param field - the parameter that differs
   * @param stored - its stored value
   * @param requested - the value this store asks for
   * @param options - standard `ErrorOptions` (`cause`: Redis' reply)
   */
  constructor(where: string, field: string, stored: string, requested: string, options?: ErrorOptions) {
    super(
      'INCOMPATIBLE_FILTER',
      `The Bloom filter at ${where} was built with ${field}=${stored}, this store asks for ${field}=${requested}. ` +
        `Open it with the original capacity/errorRate/blocks/recipe, or use another key (or delete the old one).`,
      options,
    );
    this.field = field;
    this.stored = stored;
    this.requested = requested;
  }
}

import { DedupError } from './dedup-error.js';

/**
 * A Redis dedup store was asked for another layout than the one its keys hold: attached to a sharded queue (split
 * into one part per shard) while it holds keys unsplit, or split over another shard count, rule or queue than the
 * one recorded. Using it anyway would look keys up in parts that never saw them (false negatives), so the store
 * refuses and nothing is written.
 */
export class StoreLayoutMismatchError extends DedupError {
  /** The store's key. */
  readonly key: string;
  /** The layout its keys hold, e.g. `unsplit (1200 keys)` or `split into 12 parts (shardBy host) over {p:rq:a#0.3}…`. */
  readonly recorded: string;
  /** The layout it was asked for. */
  readonly requested: string;

  /**
   * @param key - the store's key
   * @param recorded - the layout its keys hold
   * @param requested - the layout asked for
   * @param advice - what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(key: string, recorded: string, requested: string, advice: string, options?: ErrorOptions) {
    super('STORE_LAYOUT_MISMATCH', `The dedup store at ${key} is ${recorded}, and was asked to be ${requested}. ${advice} Nothing was written.`, options);
    this.key = key;
    this.recorded = recorded;
    this.requested = requested;
  }
}

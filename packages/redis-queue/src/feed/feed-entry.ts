import type { UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import type { EncodedRequest } from '../core/request-codec.js';

// The feed's side of the queue's add path: the feed hands batches to whatever adds them (the queue's AddPath, or a
// shard's), so the feed does not import the queue hub above it.

/** One item of a start-URL feed batch: a request, or the reason it cannot be one. With `deadLetterId`, a dead
 * letter of the item is written under that id, once (an item of a feed claim, which a replay may add again). */
export type FeedEntry = ({ raw: Buffer; request: EncodedRequest } | { raw: Buffer; reason: string }) & { deadLetterId?: string };

/** How a feed batch reached the caller: read from a list (the script checks the head and trims it), read from a set
 * or sorted set (the script removes each member and commits only those it removed), or already popped. */
export type FeedStep = { kind: 'check'; feedKey: string } | { kind: 'members'; feedKey: string; layout: 'set' | 'zset' } | { kind: 'popped' };

/** What the feed needs of a queue's add path (the queue's `AddPath` has it). */
export interface FeedAdder {
  /** The registered uniqueKey transform, applied to each feed item's uniqueKey, or undefined. */
  readonly uniqueKeyTransform?: UniqueKeyTransform;
  /**
   * Adds one feed batch and performs its feed step in the same script call.
   * @param entries - the batch's items, in feed order
   * @param step - how the batch reached the caller
   * @returns each entry's add-requests reply code, or undefined when the feed head changed under the caller (nothing done)
   */
  addFeedBatch(entries: readonly FeedEntry[], step: FeedStep): Promise<number[] | undefined>;
}

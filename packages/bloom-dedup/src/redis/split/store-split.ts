import { ENQUEUE_FILTER_SOURCE, type EnqueueFilterShardLayout, type EnqueueFilterSource, type EnqueueFilterSplit } from '@crawlee-distributed/redis-kit/seam';
import type { DedupStore } from '../../dedup-store.js';
import { StoreLayoutMismatchError } from '../../errors/store-layout-mismatch-error.js';
import type { RedisConnection } from '../connection.js';
import { checkSplitLayout, describeLayout, partOf, sameLayout, tagsJson, type SplitLayout } from './split-layout.js';
import { claimSplit, readSplitRecord, type SplitRecordKeys } from './split-record.js';

/** A part: a whole store of the same kind under the part's key, offering the seam's source. */
export type PartStore = DedupStore & { open(): Promise<void>; readonly [ENQUEUE_FILTER_SOURCE]: EnqueueFilterSource };

/** The split a store is using: its layout and one open store per part. */
export interface ActiveSplit<P extends PartStore> {
  layout: SplitLayout;
  parts: P[];
}

/**
 * The split side of a Redis dedup store (docs/enqueue-filter-seam.md, "Sharded queues"): builds the parts of a
 * layout, finds a recorded split on open, records one when a sharded queue's sink prepares it, and hands the seam
 * its parts. Once active, the store routes every key to its part ({@link routeByPart}).
 */
export class StoreSplit<P extends PartStore> {
  /** The split in use, once the store opened a recorded one or a sink prepared one. */
  active?: ActiveSplit<P>;
  private readonly built = new Map<string, P[]>();
  private preparing?: { id: string; done: Promise<void> };

  /**
   * @param keys - where the store records its split
   * @param makePart - builds part s's store (pure: no Redis) on the given connection
   */
  constructor(
    private readonly keys: SplitRecordKeys,
    private readonly makePart: (tag: string, layout: SplitLayout, redis: RedisConnection) => P,
  ) {}

  private partsOf(layout: SplitLayout, redis: RedisConnection): P[] {
    const id = `${layout.shardBy} ${tagsJson(layout)}`;
    let parts = this.built.get(id);
    if (!parts) {
      parts = layout.tags.map((tag) => this.makePart(tag, layout, redis));
      this.built.set(id, parts);
    }
    return parts;
  }

  private async activate(layout: SplitLayout, redis: RedisConnection): Promise<void> {
    const parts = this.partsOf(layout, redis);
    await Promise.all(parts.map((part) => part.open()));
    this.active = { layout, parts };
  }

  /**
   * On open: activates the split recorded in Redis, if any.
   * @returns true when the store is split
   */
  async openRecorded(redis: RedisConnection): Promise<boolean> {
    const layout = await readSplitRecord(redis, this.keys);
    if (layout) await this.activate(layout, redis);
    return layout !== undefined;
  }

  /**
   * On the open of a store a sink is preparing a split for (and that has none recorded): records this split, so the
   * store never creates its unsplit layout.
   * @throws {@link StoreLayoutMismatchError} when the store holds keys unsplit or another split is recorded
   */
  async claim(redis: RedisConnection, layout: SplitLayout): Promise<void> {
    await claimSplit(redis, this.keys, layout);
    await this.activate(layout, redis);
  }

  /** Refuses a whole-store use (a plan for an unsharded queue) of a split store. */
  assertUnsplit(what: string): void {
    if (!this.active) return;
    throw new StoreLayoutMismatchError(
      this.keys.key,
      describeLayout(this.active.layout),
      `used whole (${what})`,
      'Attach it only to the sharded queue it was split for, or open a store under another key for this queue.',
    );
  }

  /**
   * The seam's split (pure): part s's seam source, the part rule, and `prepare`.
   * @param given - the sink's layout (input: checked)
   * @param redis - the store's connection object
   * @param open - opens the store for this split (a recorded split is activated; a store with none records this one
   *   instead of creating its unsplit layout), resolving to its connection
   * @param afterClaim - run once this store switched from an unsplit open to the split (frees what it allocated)
   */
  seamSplit(
    given: EnqueueFilterShardLayout,
    redis: RedisConnection,
    open: (layout: SplitLayout) => Promise<RedisConnection>,
    afterClaim: () => Promise<void>,
  ): EnqueueFilterSplit {
    const layout = checkSplitLayout(given, `dedup store ${this.keys.key}`);
    const parts = this.partsOf(layout, redis);
    return {
      parts: parts.map((part) => part[ENQUEUE_FILTER_SOURCE]),
      partOf: (key) => partOf(layout, key),
      prepare: () => this.prepare(layout, open, afterClaim),
    };
  }

  /** Records (or checks) the split and opens its parts; memoized per layout, retried after a failure. */
  private prepare(layout: SplitLayout, open: (layout: SplitLayout) => Promise<RedisConnection>, afterClaim: () => Promise<void>): Promise<void> {
    if (this.active && sameLayout(this.active.layout, layout)) return Promise.resolve();
    const id = `${layout.shardBy} ${tagsJson(layout)}`;
    if (this.preparing?.id === id) return this.preparing.done;
    const done = (async () => {
      const redis = await open(layout);
      if (this.active) {
        if (sameLayout(this.active.layout, layout)) return;
        throw new StoreLayoutMismatchError(this.keys.key, describeLayout(this.active.layout), describeLayout(layout), 'Attach it only to the queue it was split for, or open a store under another key for this queue.');
      }
      // The store was opened unsplit before (its own open(), or a direct call): switch it.
      await this.claim(redis, layout);
      await afterClaim();
    })();
    this.preparing = { id, done };
    done.catch(() => {
      if (this.preparing?.done === done) this.preparing = undefined;
    });
    return done;
  }

  /** Closes every part built (they share the store's connection, which they never close). */
  async close(): Promise<void> {
    await Promise.all([...this.built.values()].flat().map((part) => part.close()));
  }
}

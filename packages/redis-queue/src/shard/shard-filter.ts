import type { AttachEnqueueFilterOptions, EnqueueFilterSource, EnqueueFilterSplit } from '@crawlee-distributed/redis-kit/seam';
import type { RequestSchema } from '../core/crawlee-types.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { QueueCore } from '../queue/queue-core.js';
import type { ShardBy } from './shard-of.js';

interface SplitAttached {
  split: EnqueueFilterSplit;
  keyOf: NonNullable<AttachEnqueueFilterOptions['keyOf']>;
}

/**
 * The enqueue filter of a sharded queue (docs/enqueue-filter-seam.md, "Sharded queues"). A source whose keys every
 * shard can reach (one standalone Redis) runs whole in every shard's add script, as on an unsharded queue. Otherwise
 * (a Cluster: its keys sit on other slots than most shards) a source that can split gives one part per shard, part s
 * in shard s's hash tag, and shard s's add script runs part s's plan. Anything else cannot attach, and `withDedup`
 * filters in front of the queue.
 */
export class ShardFilter {
  private split?: SplitAttached;

  /**
   * @param cores - the shards' cores (each with its own filter slot and hash tag)
   * @param shardBy - the queue's shard rule, handed to a splitting source
   */
  constructor(
    private readonly cores: readonly QueueCore[],
    private readonly shardBy: ShardBy,
  ) {}

  /** The source's split over this queue's shards, when every part can run in its shard's script. */
  private splitOf(source: EnqueueFilterSource): EnqueueFilterSplit | undefined {
    if (typeof source?.splitEnqueueFilter !== 'function') return undefined;
    const split = source.splitEnqueueFilter({ tags: this.cores.map((core) => core.keys.tag), shardBy: this.shardBy });
    if (!split || !Array.isArray(split.parts) || split.parts.length !== this.cores.length) return undefined;
    if (typeof split.prepare !== 'function' || typeof split.partOf !== 'function') return undefined;
    return split.parts.every((part, s) => this.cores[s]!.filter.canAttach(part)) ? split : undefined;
  }

  private wholeFits(source: EnqueueFilterSource): boolean {
    return this.cores.every((core) => core.filter.canAttach(source));
  }

  /** @param source - a dedup store offering the seam @returns true when it runs whole or split in the shards' scripts */
  canAttach(source: EnqueueFilterSource): boolean {
    return this.wholeFits(source) || this.splitOf(source) !== undefined;
  }

  /**
   * Attaches the source whole to every shard, or its parts one per shard.
   * @param source - a dedup store offering the seam
   * @param options - `keyOf`, `onFiltered`
   * @throws {@link EnqueueFilterIncompatibleError} when {@link ShardFilter.canAttach} is false (nothing attached)
   */
  attach(source: EnqueueFilterSource, options: AttachEnqueueFilterOptions = {}): void {
    if (this.wholeFits(source)) {
      this.split = undefined;
      for (const core of this.cores) core.filter.attach(source, options);
      return;
    }
    const split = this.splitOf(source);
    if (!split) {
      // The first shard that cannot run the whole store throws the typed error, before any shard is attached.
      this.cores.find((core) => !core.filter.canAttach(source))!.filter.attach(source, options);
      return;
    }
    this.cores.forEach((core, s) => core.filter.attach(split.parts[s]!, options));
    this.split = { split, keyOf: options.keyOf ?? ((r) => r.uniqueKey) };
  }

  /** Stops filtering in every shard. */
  detach(): void {
    this.split = undefined;
    for (const core of this.cores) core.filter.detach();
  }

  /**
   * Before a split filter's plans run: the store's layout is recorded (or the add rejects with the store's error),
   * and every request's dedup key belongs to its own shard's part. Checked for the whole batch before any shard is
   * written.
   * @param groups - shard → the requests that land in it
   * @throws {@link InvalidRequestError} for a request whose dedup key belongs to another shard's part
   */
  async beforeAdd(groups: ReadonlyMap<number, readonly RequestSchema[]>): Promise<void> {
    for (const [s, requests] of groups) {
      for (const r of requests) {
        const problem = this.misplaced(s, r);
        if (problem) throw new InvalidRequestError(problem);
      }
    }
    await this.prepare();
  }

  /**
   * Why a request cannot land in shard `s` while a split filter is attached (its dedup key belongs to another
   * shard's part), or undefined when it can (always, without a split filter). The feed uses it per item: a
   * misplaced feed item becomes a dead letter instead of failing the batch.
   * @param s - the request's shard
   * @param r - the request (uniqueKey, url, method)
   */
  misplaced(s: number, r: { uniqueKey: string; url: string; method?: string }): string | undefined {
    const attached = this.split;
    if (!attached) return undefined;
    const dedupKey = attached.keyOf({ uniqueKey: r.uniqueKey, url: r.url, method: r.method });
    const part = attached.split.partOf(dedupKey);
    if (part === undefined || part === s) return undefined;
    return (
      `request ${r.url}: its dedup key ${JSON.stringify(dedupKey.slice(0, 80))} belongs to part ${part} of the split dedup store, ` +
      `but the request lands in shard ${s}: on a sharded queue the dedup key must shard like the uniqueKey ` +
      `(keep withDedup's default key, the uniqueKey; with shardBy 'host', a key function that keeps the URL's host)`
    );
  }

  /** Records a split store's layout once, before its plans run in any shard (nothing to do without one).
   * @throws the store's layout error (e.g. crawlee-bloom-dedup's StoreLayoutMismatchError); nothing is added */
  async prepare(): Promise<void> {
    await this.split?.split.prepare();
  }
}

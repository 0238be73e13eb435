import { checkStoreOptionNames, REDIS_BLOOM_OPTIONS } from '../known-store-options.js';
import { bitOffsets, bitPosition, digestHex } from '../bloom/bit-indexes.js';
import { bloomParameters, MAX_REDIS_BLOCK_BITS, type BloomParameters } from '../bloom/parameters.js';
import type { DedupStats, DedupStore } from '../dedup-store.js';
import { ENQUEUE_FILTER_SOURCE, type EnqueueFilterPlan, type EnqueueFilterSource } from '@crawlee-distributed/redis-kit/seam';
import { ForgetUnsupportedError } from '../errors/forget-unsupported-error.js';
import { StoreClosedError } from '../errors/store-closed-error.js';
import { callGroups, type BatchLayout } from './bloom-call-groups.js';
import { bloomKeys, type BloomKeys } from './bloom-keys.js';
import { FILTERED_FIELD, NEW_FIELD, openFilterMeta, preallocateBlocks, readFilterStats } from './bloom-meta.js';
import type { RedisBloomDedupStoreOptions } from './redis-bloom-options.js';
import { validateRedisStoreOptions } from './validate-store-options.js';
import { ConnectionHolder, type RedisConnection } from './connection.js';
import { runScript, toBooleans } from './scripts.js';
import { partKey, type SplitLayout } from './split/split-layout.js';
import { routeByPart } from './split/route-by-part.js';
import { StoreSplit } from './split/store-split.js';
import { sumStats } from './split/sum-stats.js';

export type { RedisBloomDedupStoreOptions } from './redis-bloom-options.js';

/**
 * Bloom filter in Redis strings, shared by every process of a crawl. One Lua script tests and sets all k bits of
 * every key of a batch (one round trip per batch, one per slot on a Cluster), so of several workers adding one key
 * exactly one is told "new". Bit indexes come from the key's SHA-1 bytes (its own when it is a 40-hex fingerprint);
 * filters above 2^32 bits are split into blocks, each key's bits inside one block. The parameters are stored in a
 * meta hash; reopening with others throws {@link IncompatibleFilterError}. Attached to a sharded queue on a
 * Cluster, the filter is split into one part per shard, each in its shard's slot and sized for its share of
 * `capacity` (README, "On a sharded queue"); every method then routes a key to its part.
 */
export class RedisBloomDedupStore implements DedupStore {
  /** Filter shape derived from capacity, error rate and blocks. */
  readonly parameters: BloomParameters;
  /** Redis keys of the filter. */
  readonly keys: BloomKeys;
  /** Always false: a Bloom filter cannot delete a key (see {@link RedisBloomDedupStore.forget}). */
  readonly canForget = false;
  private readonly options: RedisBloomDedupStoreOptions;
  private holder?: ConnectionHolder;
  private opening?: Promise<ConnectionHolder>;
  private closed = false;
  /** The split over a sharded queue's shards (README, "On a sharded queue"), once recorded. */
  private readonly split: StoreSplit<RedisBloomDedupStore>;
  /** The split a sink is preparing while this store opens (src/redis/split/store-split.ts). */
  private pendingSplit?: SplitLayout;
  /** This instance created or opened the unsplit filter (and preallocated its blocks). */
  private openedUnsplit = false;

  /**
   * Validates the options; Redis is touched on {@link RedisBloomDedupStore.open} or the first call.
   * @param options - see {@link RedisBloomDedupStoreOptions}
   * @throws {@link InvalidDedupOptionsError} on a bad capacity, error rate, key or block count
   * @throws {@link FilterTooLargeError} when a block would exceed 2^32 bits or the filter `maxFilterBytes`
   */
  constructor(options: RedisBloomDedupStoreOptions) {
    checkStoreOptionNames('RedisBloomDedupStore', options, REDIS_BLOOM_OPTIONS);
    validateRedisStoreOptions(options);
    this.options = options;
    this.parameters = bloomParameters({
      capacity: options.capacity,
      errorRate: options.errorRate,
      blocks: options.blocks,
      maxBlockBits: MAX_REDIS_BLOCK_BITS,
      maxFilterBytes: options.maxFilterBytes,
    });
    this.keys = bloomKeys(options.key, this.parameters.blocks);
    this.split = new StoreSplit({ key: options.key, root: this.keys.meta, data: this.keys.meta }, (tag, layout, redis) => this.makePart(tag, layout, redis));
  }

  /** Part of a split filter: the same filter options under the part's key, sized for its share of the capacity. */
  private makePart(tag: string, layout: SplitLayout, redis: RedisConnection): RedisBloomDedupStore {
    const parts = layout.tags.length;
    const { blocks } = this.options;
    return new RedisBloomDedupStore({
      ...this.options,
      redis,
      key: partKey(tag, this.options.key),
      capacity: Math.ceil(this.options.capacity / parts),
      blocks: blocks === undefined ? undefined : Math.ceil(blocks / parts),
    });
  }

  /** Opens the store for a sink's split: a store with no split recorded records this one instead of creating its
   *  unsplit layout. @param layout - the split @returns the connection */
  private async openForSplit(layout: SplitLayout): Promise<RedisConnection> {
    this.pendingSplit = layout;
    try {
      return (await this.connection()).redis;
    } finally {
      this.pendingSplit = undefined;
    }
  }

  /**
   * The split in use: one part per shard of the sharded queue it was attached to on a Cluster, part s's keys in
   * shard s's hash tag (README, "On a sharded queue"); undefined while unsplit.
   */
  get splitLayout(): { shardBy: SplitLayout['shardBy']; tags: string[]; parts: BloomKeys[] } | undefined {
    const active = this.split.active;
    return active && { shardBy: active.layout.shardBy, tags: [...active.layout.tags], parts: active.parts.map((p) => p.keys) };
  }

  /**
   * Opens a store and checks (or creates) the filter's meta hash.
   * @throws {@link IncompatibleFilterError} when the key holds a filter with other parameters
   * @throws {@link RedisUnreachableError} when `redis` is a URL and the first connection fails within `connectTimeoutSecs`
   */
  static async open(options: RedisBloomDedupStoreOptions): Promise<RedisBloomDedupStore> {
    const store = new RedisBloomDedupStore(options);
    await store.open();
    return store;
  }

  /** The connection, once opened (a string `redis` option is connected on open). */
  get redis(): RedisConnection | undefined {
    return this.holder?.redis ?? (typeof this.options.redis === 'string' ? undefined : this.options.redis);
  }

  /**
   * Creates or checks the meta hash and preallocates the blocks. Called by every method; idempotent.
   * @throws {@link IncompatibleFilterError} when the stored parameters differ
   */
  async open(): Promise<void> {
    await this.connection();
  }

  private connection(): Promise<ConnectionHolder> {
    if (this.closed) return Promise.reject(new StoreClosedError(`RedisBloomDedupStore(${this.options.key})`));
    this.opening ??= this.doOpen().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  private async doOpen(): Promise<ConnectionHolder> {
    const holder = this.holder ?? (await ConnectionHolder.from(this.options.redis, this.options.connectTimeoutSecs));
    this.holder = holder;
    if (await this.split.openRecorded(holder.redis)) return holder;
    const pending = this.pendingSplit;
    if (pending) {
      await this.split.claim(holder.redis, pending);
      return holder;
    }
    const splitMeanwhile = await openFilterMeta(holder.redis, this.options.key, this.keys, this.parameters, this.options.recipe);
    // Split by another process since the read above: open the parts instead (meta_open wrote nothing).
    if (splitMeanwhile && (await this.split.openRecorded(holder.redis))) return holder;
    this.openedUnsplit = true;
    if (this.options.preallocate ?? true) await preallocateBlocks(holder.redis, this.keys, this.parameters.blockBits);
    return holder;
  }

  /** What {@link callGroups} needs to split a batch into script calls. */
  private batchLayout(): BatchLayout {
    return { keys: this.keys, blocks: this.parameters.blocks, maxBatch: this.options.maxBatch ?? 5000 };
  }

  /**
   * Tests and sets the keys' bits.
   * @param keys - dedup keys (40-hex fingerprints use their own bytes; other strings are SHA-1 hashed first)
   * @returns per key, `true` when it was new
   * @throws {@link IncompatibleFilterError} on the first call, when the stored filter has other parameters
   */
  async add(keys: readonly string[]): Promise<boolean[]> {
    const { redis } = await this.connection();
    if (keys.length === 0) return [];
    const split = this.split.active;
    if (split) return routeByPart(split.layout, keys, (part, partKeys) => split.parts[part]!.add(partKeys));
    const result = new Array<boolean>(keys.length);
    const groups = callGroups(redis, keys, true, this.batchLayout());
    let uncounted = 0;
    await Promise.all(
      groups.map(async (group) => {
        const keysOfCall = group.withCounter ? [...group.keys, this.keys.meta] : group.keys;
        const args = [this.parameters.blockBits, this.parameters.hashes, group.withCounter ? NEW_FIELD : '', ...group.args];
        const reply = toBooleans(await runScript(redis, 'bloomAdd', keysOfCall, args, this.options.key));
        reply.forEach((isNew, j) => {
          result[group.positions[j] as number] = isNew;
          if (!group.withCounter && isNew) uncounted++;
        });
      }),
    );
    // On a Cluster whose blocks sit on other slots than the meta hash, the shared counter is bumped separately.
    if (uncounted > 0) {
      await redis.hincrby(this.keys.meta, NEW_FIELD, uncounted);
    }
    return result;
  }

  /**
   * Reads the keys' bits without changing them.
   * @param keys - dedup keys
   * @returns per key, `true` when every bit is set (seen, or a false positive)
   */
  async has(keys: readonly string[]): Promise<boolean[]> {
    const { redis } = await this.connection();
    if (keys.length === 0) return [];
    const split = this.split.active;
    if (split) return routeByPart(split.layout, keys, (part, partKeys) => split.parts[part]!.has(partKeys));
    const result = new Array<boolean>(keys.length);
    await Promise.all(
      callGroups(redis, keys, false, this.batchLayout()).map(async (group) => {
        const args = [this.parameters.blockBits, this.parameters.hashes, ...group.args];
        const reply = toBooleans(await runScript(redis, 'bloomHas', group.keys, args, this.options.key));
        reply.forEach((seen, j) => (result[group.positions[j] as number] = seen));
      }),
    );
    return result;
  }

  /** Shared totals from the meta hash; fill ratio and false-positive rate are the expected values for that many items. */
  async stats(): Promise<DedupStats> {
    const { redis } = await this.connection();
    const split = this.split.active;
    if (split) {
      const parts = await Promise.all(split.parts.map((part) => part.stats()));
      return sumStats(parts, { capacity: this.parameters.capacity, errorRate: this.parameters.errorRate });
    }
    return readFilterStats(redis, this.keys, this.parameters);
  }

  /**
   * Adds to the shared "filtered" counter.
   * @param count - requests filtered
   */
  async recordFiltered(count: number): Promise<void> {
    if (count <= 0) return;
    const { redis } = await this.connection();
    // A split store counts filtered requests that reached no part (filtered in front of a queue) in part 0.
    if (this.split.active) return this.split.active.parts[0]!.recordFiltered(count);
    await redis.hincrby(this.keys.meta, FILTERED_FIELD, count);
  }

  /**
   * A Bloom filter cannot forget: a key's k bits are shared with other keys, so clearing them would make keys that
   * were seen (by every worker of the fleet) read as new, and leaving them set keeps the key seen. Redis is not touched.
   * @param keys - dedup keys
   * @throws {@link ForgetUnsupportedError} always (as a rejected promise); use `RedisSetDedupStore` for keys you may
   * need to forget, or rotate the filter: open a new one under another key and add the keys you still want
   */
  forget(keys: readonly string[]): Promise<boolean[]> {
    return Promise.reject(new ForgetUnsupportedError('RedisBloomDedupStore', keys.length));
  }

  /** Closes the connection when the store opened it from a URL. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.split.close();
    await this.holder?.close();
  }

  /**
   * Bit offsets of a key inside its block (the same numbers the Lua scripts compute).
   * @param key - dedup key
   * @returns the block index and the k offsets
   */
  bitsOf(key: string): { block: number; offsets: number[] } {
    const p = this.parameters;
    const position = bitPosition(Buffer.from(digestHex(key), 'hex'), p.blockBits, p.blocks);
    return { block: position.block, offsets: bitOffsets(position, p.blockBits, p.hashes) };
  }

  /** The seam source (docs/enqueue-filter-seam.md): lets crawlee-redis-queue run this filter inside its add script. */
  get [ENQUEUE_FILTER_SOURCE](): EnqueueFilterSource {
    const redis = this.redis;
    return {
      redis,
      planEnqueueFilter: (dedupKeys) => this.planEnqueueFilter(dedupKeys),
      enqueueFilterKeys: () => [...this.keys.blocks, this.keys.meta],
      // Whichever add path runs the first plan (an API add, a start-URL feed drain, a shard), the meta hash is
      // written whole first.
      prepare: () => this.open(),
      // On a sharded queue whose shards the whole filter cannot join (a Cluster), one part per shard.
      splitEnqueueFilter:
        redis && this.options.split !== false
        ? (layout) =>
            this.split.seamSplit(layout, redis, (l) => this.openForSplit(l), () => this.freeUnsplitBlocks())
        : undefined,
    };
  }

  /**
   * After this instance switched from the unsplit filter it opened to a split: the unsplit blocks it preallocated
   * hold no key (the split is recorded only while the counters are 0) and nothing reads them any more, so they are
   * deleted rather than left allocated.
   */
  private async freeUnsplitBlocks(): Promise<void> {
    if (!this.openedUnsplit || !this.holder) return;
    this.openedUnsplit = false;
    const redis = this.holder.redis;
    await Promise.all(this.keys.blocks.map((block) => redis.del(block)));
  }

  /**
   * Describes the check-and-set of these keys as 'bits' ops; does not touch Redis.
   * @param dedupKeys - dedup keys, in request order
   * @throws {@link StoreLayoutMismatchError} when the store is split (a split store runs per part, in a sharded queue)
   */
  planEnqueueFilter(dedupKeys: string[]): EnqueueFilterPlan {
    this.split.assertUnsplit('a plan for an unsharded queue');
    const metaIndex = this.keys.blocks.length;
    return {
      keys: [...this.keys.blocks, this.keys.meta],
      ops: dedupKeys.map((key) => {
        const { block, offsets } = this.bitsOf(key);
        return { type: 'bits' as const, key: block, offsets: offsets.map(String) };
      }),
      counter: { key: metaIndex, newField: NEW_FIELD, filteredField: FILTERED_FIELD },
    };
  }
}

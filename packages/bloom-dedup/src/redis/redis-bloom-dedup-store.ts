import { checkStoreOptionNames, REDIS_BLOOM_OPTIONS } from '../known-store-options.js';
import { bitOffsets, bitPosition, digestHex, modBigEndian } from '../bloom/bit-indexes.js';
import {
  bloomParameters,
  estimatedFalsePositiveRate,
  expectedFillRatio,
  MAX_REDIS_BLOCK_BITS,
  type BloomParameters,
} from '../bloom/parameters.js';
import type { DedupStats, DedupStore } from '../dedup-store.js';
import { ENQUEUE_FILTER_SOURCE, type EnqueueFilterPlan, type EnqueueFilterSource } from '@crawlee-distributed/redis-kit/seam';
import { ForgetUnsupportedError } from '../errors/forget-unsupported-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { StoreClosedError } from '../errors/store-closed-error.js';
import { bloomKeys, type BloomKeys } from './bloom-keys.js';
import { checkBlockLayout } from './check-block-layout.js';
import { validateRedisStoreOptions } from './validate-store-options.js';
import { ConnectionHolder, isCluster, type RedisConnection } from './connection.js';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { runScript, toBooleans } from './scripts.js';
import { OPEN_REPLY } from './reply-codes.js';
import { partKey, type SplitLayout } from './split/split-layout.js';
import { routeByPart } from './split/route-by-part.js';
import { StoreSplit } from './split/store-split.js';
import { sumStats } from './split/sum-stats.js';

/** Options of {@link RedisBloomDedupStore}. */
export interface RedisBloomDedupStoreOptions {
  /** ioredis `Redis` or `Cluster` (not closed by the store), or a URL (the store opens and closes its own connection). */
  redis: RedisConnection | string;
  /** Base key; the filter lives at `{key}:bits` / `{key}:meta` (see README "Key layout"). */
  key: string;
  /** Items the filter is sized for; a positive integer. */
  capacity: number;
  /** Target false-positive rate at capacity, 0 \< errorRate \< 1. */
  errorRate: number;
  /** Number of blocks (each at most 2^32 bits). @defaultValue the fewest that fit */
  blocks?: number;
  /**
   * Largest total filter size accepted, in bytes (all blocks together; preallocation makes Redis hold all of it).
   * A larger filter throws {@link FilterTooLargeError} in the constructor, before Redis is touched.
   * @defaultValue 16 GiB ({@link DEFAULT_MAX_FILTER_BYTES}); 1e9 keys at p = 1e-6 take about 3.6 GB
   */
  maxFilterBytes?: number;
  /** Fingerprint recipe of the keys (e.g. 'scrapy'), stored with the filter and checked on reopen when both know it. */
  recipe?: string;
  /** Allocate every block's full string when opening (predictable memory). @defaultValue true */
  preallocate?: boolean;
  /** Keys per script call; larger batches are split. 1 to 50,000. @defaultValue 5000 */
  maxBatch?: number;
  /**
   * Bound on the first connection when `redis` is a URL, in seconds: a refused or silent Redis rejects `open()` (and
   * the first call) with {@link RedisUnreachableError} instead of retrying forever; the connection is closed. Later
   * disconnects are retried by ioredis as usual. Ignored for a given client.
   * @defaultValue 10
   */
  connectTimeoutSecs?: number;
  /**
   * Whether the filter may be split into one part per shard when it is attached to a sharded queue on a Cluster (so
   * each shard's add script runs its part atomically). With `false`, `withDedup` filters in front of such a queue.
   * @defaultValue true
   */
  split?: boolean;
}

const NEW_FIELD = 'itemsAdded';
const FILTERED_FIELD = 'filtered';

/** One script call: the keys it touches and which batch positions it answers. */
interface CallGroup {
  keys: string[];
  keyIndex: Map<string, number>;
  positions: number[];
  args: (string | number)[];
  withCounter: boolean;
}

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
    await checkBlockLayout(holder.redis, this.options.key, this.keys);
    const p = this.parameters;
    const compared = [
      ['bits', p.bits],
      ['hashes', p.hashes],
      ['blocks', p.blocks],
      ['blockBits', p.blockBits],
      ['indexScheme', p.indexScheme],
    ] as const;
    const info = [
      ['capacity', p.capacity],
      ['errorRate', p.errorRate],
      ['type', 'bloom'],
      ['createdAt', new Date().toISOString()],
    ] as const;
    const opened = await runScript(
      holder.redis,
      'metaOpen',
      [this.keys.meta],
      [compared.length, ...compared.flat().map(String), this.options.recipe ?? '', ...info.flat().map(String)],
      this.keys.meta,
    );
    // Split by another process since the read above: open the parts instead (meta_open wrote nothing).
    if (Number(opened) === OPEN_REPLY.SPLIT && (await this.split.openRecorded(holder.redis))) return holder;
    this.openedUnsplit = true;
    if (this.options.preallocate ?? true) {
      await Promise.all(
        this.keys.blocks.map((block) => runScript(holder.redis, 'bloomPrealloc', [block], [p.blockBits], block)),
      );
    }
    return holder;
  }

  /** Block index of each key and its lowercase digest. */
  private locate(keys: readonly string[]): { digests: string[]; blocks: number[] } {
    const digests = keys.map((key) => {
      if (typeof key !== 'string') throw new InvalidDedupOptionsError(`dedup keys must be strings, got ${typeof key}`);
      return digestHex(key);
    });
    const count = this.parameters.blocks;
    const blocks = digests.map((d) => (count === 1 ? 0 : modBigEndian(Buffer.from(d, 'hex'), 16, 4, count)));
    return { digests, blocks };
  }

  /** Splits a batch into script calls: one per slot on a Cluster, one in total on a single node. */
  private groups(redis: RedisConnection, keys: readonly string[], withCounter: boolean): CallGroup[] {
    const { digests, blocks } = this.locate(keys);
    const cluster = isCluster(redis);
    const metaSlot = slotOf(this.keys.meta);
    const bySlot = new Map<number, CallGroup>();
    const maxBatch = this.options.maxBatch ?? 5000;
    const all: CallGroup[] = [];
    for (let i = 0; i < digests.length; i++) {
      const blockKey = this.keys.blocks[blocks[i] as number] as string;
      const slot = cluster ? slotOf(blockKey) : 0;
      let group = bySlot.get(slot);
      if (!group || group.positions.length >= maxBatch) {
        group = { keys: [], keyIndex: new Map(), positions: [], args: [], withCounter: false };
        group.withCounter = withCounter && (!cluster || slot === metaSlot);
        bySlot.set(slot, group);
        all.push(group);
      }
      let index = group.keyIndex.get(blockKey);
      if (index === undefined) {
        group.keys.push(blockKey);
        index = group.keys.length;
        group.keyIndex.set(blockKey, index);
      }
      group.positions.push(i);
      group.args.push(index, digests[i] as string);
    }
    return all;
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
    const groups = this.groups(redis, keys, true);
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
      this.groups(redis, keys, false).map(async (group) => {
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
    const [added, filtered] = await redis.hmget(this.keys.meta, NEW_FIELD, FILTERED_FIELD);
    const lengths = await Promise.all(this.keys.blocks.map((block) => redis.strlen(block)));
    const itemsAdded = Number(added ?? 0);
    const p = this.parameters;
    return {
      itemsAdded,
      filtered: Number(filtered ?? 0),
      fillRatio: expectedFillRatio(p, itemsAdded),
      estimatedFalsePositiveRate: estimatedFalsePositiveRate(p, itemsAdded),
      bytesUsed: lengths.reduce((a, b) => a + Number(b), 0),
      capacity: p.capacity,
      errorRate: p.errorRate,
      bits: p.bits,
      hashes: p.hashes,
      blocks: p.blocks,
    };
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

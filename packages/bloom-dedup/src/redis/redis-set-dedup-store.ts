import { checkStoreOptionNames, REDIS_SET_OPTIONS } from '../known-store-options.js';
import type { DedupStats, DedupStore } from '../dedup-store.js';
import { ENQUEUE_FILTER_SOURCE, type EnqueueFilterPlan, type EnqueueFilterSource } from '@crawlee-distributed/redis-kit/seam';
import { StoreClosedError } from '../errors/store-closed-error.js';
import { validateRedisStoreOptions } from './validate-store-options.js';
import { ConnectionHolder, type RedisConnection } from './connection.js';
import { sameSlotKey } from '@crawlee-distributed/redis-kit';
import { runScript, toBooleans } from './scripts.js';
import { partKey, type SplitLayout } from './split/split-layout.js';
import { routeByPart } from './split/route-by-part.js';
import { StoreSplit } from './split/store-split.js';
import { sumStats } from './split/sum-stats.js';

/** Options of {@link RedisSetDedupStore}. */
export interface RedisSetDedupStoreOptions {
  /** ioredis `Redis` or `Cluster` (not closed by the store), or a URL (the store opens and closes its own connection). */
  redis: RedisConnection | string;
  /** The set's key, e.g. scrapy-redis's `'<spider>:dupefilter'`, to share one seen-set with a scrapy-redis fleet. */
  key: string;
  /** Members per script call; larger batches are split. 1 to 50,000. @defaultValue 5000 */
  maxBatch?: number;
  /**
   * Bound on the first connection when `redis` is a URL, in seconds: a refused or silent Redis rejects `open()` (and
   * the first call) with {@link RedisUnreachableError} instead of retrying forever; the connection is closed. Later
   * disconnects are retried by ioredis as usual. Ignored for a given client.
   * @defaultValue 10
   */
  connectTimeoutSecs?: number;
  /**
   * Whether the set may be split into one set per shard when it is attached to a sharded queue on a Cluster (so each
   * shard's add script runs its part atomically). A split set is no longer the one set a scrapy-redis fleet reads:
   * pass `false` when Scrapy workers share this set (`withDedup` then claims in front of the queue, exactly once
   * across both fleets).
   * @defaultValue true
   */
  split?: boolean;
}

const NEW_FIELD = 'itemsAdded';
const FILTERED_FIELD = 'filtered';

/**
 * Exact "seen" set: `SADD` of the keys themselves, with a per-key answer from one Lua script per batch.
 * With scrapy-redis's key (`<spider>:dupefilter`) and 40-hex fingerprints (crawlee-scrapy-fingerprint, recipe
 * 'scrapy-redis' or 'scrapy') it reads and writes the set a scrapy-redis fleet uses. Counters live in a hash in the
 * same Cluster slot (`{key}:stats`), never inside the set. Attached to a sharded queue on a Cluster, the set is
 * split into one set per shard, each in its shard's slot (README, "On a sharded queue"), unless `split: false`.
 */
export class RedisSetDedupStore implements DedupStore {
  /** The set's key. */
  readonly key: string;
  /** Counter hash (itemsAdded, filtered), in the set's slot. */
  readonly statsKey: string;
  /** True: an exact set can forget keys ({@link RedisSetDedupStore.forget}). */
  readonly canForget = true;
  private readonly options: RedisSetDedupStoreOptions;
  private holder?: ConnectionHolder;
  private opening?: Promise<ConnectionHolder>;
  private closed = false;
  /** The split over a sharded queue's shards, once recorded. */
  private readonly split: StoreSplit<RedisSetDedupStore>;
  /** The split a sink is preparing while this store opens (src/redis/split/store-split.ts). */
  private pendingSplit?: SplitLayout;

  /**
   * @param options - see {@link RedisSetDedupStoreOptions}
   * @throws {@link InvalidDedupOptionsError} on a missing key or connection
   */
  constructor(options: RedisSetDedupStoreOptions) {
    checkStoreOptionNames('RedisSetDedupStore', options, REDIS_SET_OPTIONS);
    validateRedisStoreOptions(options);
    this.options = options;
    this.key = options.key;
    this.statsKey = sameSlotKey(options.key, 'stats');
    this.split = new StoreSplit({ key: this.key, root: this.statsKey, data: this.key }, (tag, _layout: SplitLayout, redis) =>
      new RedisSetDedupStore({ ...options, redis, key: partKey(tag, options.key) }),
    );
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

  /** The split in use (one set per shard of the sharded queue it was attached to); undefined while unsplit. */
  get splitLayout(): { shardBy: SplitLayout['shardBy']; tags: string[]; parts: Array<{ key: string; statsKey: string }> } | undefined {
    const active = this.split.active;
    return active && { shardBy: active.layout.shardBy, tags: [...active.layout.tags], parts: active.parts.map((p) => ({ key: p.key, statsKey: p.statsKey })) };
  }

  /** The connection, once opened. */
  get redis(): RedisConnection | undefined {
    return this.holder?.redis ?? (typeof this.options.redis === 'string' ? undefined : this.options.redis);
  }

  /**
   * Connects when given a URL. Idempotent.
   * @throws {@link RedisUnreachableError} when the first connection fails within `connectTimeoutSecs`
   */
  async open(): Promise<void> {
    await this.connection();
  }

  private connection(): Promise<ConnectionHolder> {
    if (this.closed) return Promise.reject(new StoreClosedError(`RedisSetDedupStore(${this.key})`));
    this.opening ??= (async () => {
      const holder = this.holder ?? (await ConnectionHolder.from(this.options.redis, this.options.connectTimeoutSecs));
      this.holder = holder;
      // A split recorded by the processes that attached the store: route like them.
      if (!(await this.split.openRecorded(holder.redis)) && this.pendingSplit) await this.split.claim(holder.redis, this.pendingSplit);
      return holder;
    })().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  /**
   * SADDs the keys.
   * @param keys - dedup keys (stored as given)
   * @returns per key, `true` when SADD added it
   */
  async add(keys: readonly string[]): Promise<boolean[]> {
    const { redis } = await this.connection();
    const split = this.split.active;
    if (split) return routeByPart(split.layout, keys, (part, partKeys) => split.parts[part]!.add(partKeys));
    const maxBatch = this.options.maxBatch ?? 5000;
    const result: boolean[] = [];
    for (let start = 0; start < keys.length; start += maxBatch) {
      const chunk = keys.slice(start, start + maxBatch);
      const reply = await runScript(redis, 'setAdd', [this.key, this.statsKey], [NEW_FIELD, ...chunk], this.key);
      result.push(...toBooleans(reply));
    }
    return result;
  }

  /**
   * SMISMEMBER of the keys (Redis \>= 6.2).
   * @param keys - dedup keys
   * @returns per key, `true` when it is in the set
   */
  async has(keys: readonly string[]): Promise<boolean[]> {
    const { redis } = await this.connection();
    if (keys.length === 0) return [];
    const split = this.split.active;
    if (split) return routeByPart(split.layout, keys, (part, partKeys) => split.parts[part]!.has(partKeys));
    return toBooleans(await redis.smismember(this.key, ...keys));
  }

  /**
   * Removes the keys from the set in one `MULTI`/`EXEC` transaction of one `SREM` per key (atomic: no other client's
   * command runs in between; per-key answers, which one multi-member `SREM` would not give). A scrapy-redis worker
   * sharing the set then treats the request as new too. The counters are not changed (`itemsAdded` counts adds).
   * @param keys - dedup keys
   * @returns per key, `true` when it was in the set
   */
  async forget(keys: readonly string[]): Promise<boolean[]> {
    const { redis } = await this.connection();
    const split = this.split.active;
    if (split) return routeByPart(split.layout, keys, (part, partKeys) => split.parts[part]!.forget(partKeys));
    const maxBatch = this.options.maxBatch ?? 5000;
    const result: boolean[] = [];
    for (let start = 0; start < keys.length; start += maxBatch) {
      const chunk = keys.slice(start, start + maxBatch);
      const transaction = redis.multi();
      for (const member of chunk) transaction.srem(this.key, member);
      const replies = (await transaction.exec()) ?? [];
      for (const [error, removed] of replies) {
        if (error) throw error;
        result.push(Number(removed) === 1);
      }
    }
    return result;
  }

  /** Set size, shared counters and `MEMORY USAGE` of the set. */
  async stats(): Promise<DedupStats> {
    const { redis } = await this.connection();
    const split = this.split.active;
    if (split) return sumStats(await Promise.all(split.parts.map((part) => part.stats())));
    const [added, filtered] = await redis.hmget(this.statsKey, NEW_FIELD, FILTERED_FIELD);
    const bytes = (await redis.call('MEMORY', 'USAGE', this.key)) as number | null;
    return {
      itemsAdded: Number(added ?? 0),
      filtered: Number(filtered ?? 0),
      fillRatio: 0,
      estimatedFalsePositiveRate: 0,
      bytesUsed: Number(bytes ?? 0),
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
    await redis.hincrby(this.statsKey, FILTERED_FIELD, count);
  }

  /** Closes the connection when the store opened it from a URL. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.split.close();
    await this.holder?.close();
  }

  /** The seam source (docs/enqueue-filter-seam.md). */
  get [ENQUEUE_FILTER_SOURCE](): EnqueueFilterSource {
    const redis = this.redis;
    return {
      redis,
      planEnqueueFilter: (dedupKeys) => this.planEnqueueFilter(dedupKeys),
      enqueueFilterKeys: () => [this.key, this.statsKey],
      // A split recorded by another process is read before the first plan runs, whichever add path runs it.
      prepare: () => this.open(),
      // On a sharded queue whose shards the whole set cannot join (a Cluster), one set per shard.
      splitEnqueueFilter:
        redis && this.options.split !== false
          ? (layout) => this.split.seamSplit(layout, redis, (l) => this.openForSplit(l), async () => {})
          : undefined,
    };
  }

  /**
   * Describes the SADD of these keys as 'member' ops; does not touch Redis.
   * @param dedupKeys - dedup keys, in request order
   * @throws {@link StoreLayoutMismatchError} when the store is split (a split store runs per part, in a sharded queue)
   */
  planEnqueueFilter(dedupKeys: string[]): EnqueueFilterPlan {
    this.split.assertUnsplit('a plan for an unsharded queue');
    return {
      keys: [this.key, this.statsKey],
      ops: dedupKeys.map((member) => ({ type: 'member' as const, key: 0, member })),
      counter: { key: 1, newField: NEW_FIELD, filteredField: FILTERED_FIELD },
    };
  }
}

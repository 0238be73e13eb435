/**
 * The enqueue-filter seam between `crawlee-bloom-dedup` (the source: a Redis dedup store) and `crawlee-redis-queue`
 * (the sink: a request queue whose add script can run the store's check-and-set), version `@1`. Declared once, here;
 * both packages bundle and re-export it, and neither imports the other. They meet through `Symbol.for` names, so two
 * copies of a package (ESM and CJS) or two versions still match. `docs/enqueue-filter-seam.md` describes the
 * semantics; a change of these shapes bumps the `@1` suffix.
 * @packageDocumentation
 */

/** Set on a RequestQueueClient (crawlee-redis-queue) that can run a filter inside its add script. */
export const ENQUEUE_FILTER_SINK: unique symbol = Symbol.for('crawlee-distributed/enqueue-filter-sink@1') as never;
/** Set on a DedupStore (crawlee-bloom-dedup, Redis stores only) that can describe its check-and-set as plain ops. */
export const ENQUEUE_FILTER_SOURCE: unique symbol = Symbol.for('crawlee-distributed/enqueue-filter-source@1') as never;

/** One check-and-set of one dedup key. */
export interface EnqueueFilterOp {
  /** 'bits': the key is new unless every listed bit is 1; then every bit is set to 1 (a Bloom filter).
   *  'member': SADD member; new when SADD returned 1 (an exact set). */
  type: 'bits' | 'member';
  /** Index into {@link EnqueueFilterPlan.keys} of the Redis key this op touches. */
  key: number;
  /** For 'bits': bit offsets as decimal strings, each below 2^32. */
  offsets?: string[];
  /** For 'member': the set member. */
  member?: string;
}

/** The check-and-set of a batch of dedup keys, as plain Redis operations. */
export interface EnqueueFilterPlan {
  /** Redis keys the ops use. On a Cluster all of them must share the queue's hash tag (see `canAttachEnqueueFilter`). */
  keys: string[];
  /** ops[i] belongs to the i-th dedup key passed to `planEnqueueFilter`. */
  ops: EnqueueFilterOp[];
  /** Optional: a hash the script HINCRBYs: `newField` by the number of keys found new (the store's "items added"),
   *  `filteredField` by the number of requests the filter rejected (both skipped when zero). */
  counter?: { key: number; newField: string; filteredField: string };
}

/** A dedup store that can describe its check-and-set (crawlee-bloom-dedup's Redis stores). */
export interface EnqueueFilterSource {
  /** The connection the store uses (an ioredis Redis or Cluster). */
  readonly redis: unknown;
  /** Describes the check-and-set of these dedup keys; must not touch Redis. */
  planEnqueueFilter(dedupKeys: string[]): EnqueueFilterPlan;
  /** Redis keys the store may touch (to check slots on a Cluster before attaching). */
  enqueueFilterKeys(): string[];
  /**
   * Optional: readies the store before its plans run (a Bloom store creates or checks its meta hash whole, with its
   * parameters, and allocates its blocks). The sink awaits it before every add that runs this source's plan, on
   * every add path (API adds, the start-URL feed, each shard), so whichever path touches the store first finds it
   * complete. Memoized by the source (cheap after the first call). Rejects with the store's typed error (e.g. an
   * incompatible filter); nothing is added then. Optional, so seam `@1` is unchanged for sources without it.
   */
  prepare?(): Promise<void>;
  /**
   * Optional (a source without it is never split: on a sharded queue whose shards it cannot all join, the wrapper
   * filters in front of the queue, as before): describes this store split into one part per shard of a sharded
   * queue, part s with every key in `layout.tags[s]`. Pure: must not touch Redis or change the store; the split
   * takes effect when the sink awaits {@link EnqueueFilterSplit.prepare}.
   * @param layout - the queue's shard tags and rule
   * @returns the parts, or undefined when this store cannot split
   */
  splitEnqueueFilter?(layout: EnqueueFilterShardLayout): EnqueueFilterSplit | undefined;
}

/** A sharded queue's layout, as a sink hands it to {@link EnqueueFilterSource.splitEnqueueFilter}. */
export interface EnqueueFilterShardLayout {
  /** Each shard's hash tag, braces included, in shard order (2 to 256 of them). */
  tags: string[];
  /** The queue's shard rule: a request lands in shard `shardOf(uniqueKey, tags.length, shardBy)` (redis-kit's rule:
   *  the first 48 bits of SHA-1 of `host:<hostname>` or `key:<uniqueKey>`, modulo the shard count). */
  shardBy: 'host' | 'uniqueKey';
}

/** A source split into one part per shard (see {@link EnqueueFilterSource.splitEnqueueFilter}). */
export interface EnqueueFilterSplit {
  /** parts[s] runs in shard s's add script: every key of its plans in shard s's hash tag. */
  parts: EnqueueFilterSource[];
  /**
   * The part a dedup key belongs to (the store's own has/add/forget route it there), or undefined when any part may
   * take it. The sink refuses, before anything is written, a request whose dedup key belongs to another part than
   * the request's shard: one key must always meet the same part.
   */
  partOf(dedupKey: string): number | undefined;
  /** Records the split in Redis and opens the parts (idempotent; the sink awaits it before every add that runs a
   *  part's plan). Rejects with the store's typed error when the store has another layout; nothing is written then. */
  prepare(): Promise<void>;
}

/** The request fields a sink hands to `keyOf`. */
export interface EnqueueFilterRequest {
  uniqueKey: string;
  url: string;
  method?: string;
}

/** Options of {@link EnqueueFilterSink.attachEnqueueFilter}. */
export interface AttachEnqueueFilterOptions {
  /** Maps a request to its dedup key. @defaultValue the request's `uniqueKey` */
  keyOf?: (request: EnqueueFilterRequest) => string;
  /** Told how many requests the filter rejected in each batch (for the `dedup/filtered` statistic). */
  onFiltered?: (count: number) => void;
}

/** A request queue client that can run an enqueue filter inside its add script (crawlee-redis-queue). */
export interface EnqueueFilterSink {
  /** True when this queue can run the source's plans in its own script: same Redis server and db (same connection
   *  object, or same host/port/db), and on a Cluster every source key in the queue's slot; a sharded queue also
   *  accepts a source that splits into parts each in its shard's slot. */
  canAttachEnqueueFilter(source: EnqueueFilterSource): boolean;
  /** From now on every add of this client runs the filter in its add script. */
  attachEnqueueFilter(source: EnqueueFilterSource, options?: AttachEnqueueFilterOptions): void;
  /** Stops filtering. */
  detachEnqueueFilter(): void;
}

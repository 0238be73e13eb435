/**
 * The enqueue-filter seam between `crawlee-bloom-dedup` and `crawlee-redis-queue` (docs/enqueue-filter-seam.md,
 * version `@1`). Neither package depends on the other; both declare these shapes and meet through `Symbol.for`.
 * @packageDocumentation
 */

/** Set on a RequestQueueClient (crawlee-redis-queue) that can run a filter inside its add script. */
export const ENQUEUE_FILTER_SINK = Symbol.for('crawlee-distributed/enqueue-filter-sink@1');
/** Set on a DedupStore (crawlee-bloom-dedup, Redis stores only) that can describe its check-and-set as plain ops. */
export const ENQUEUE_FILTER_SOURCE = Symbol.for('crawlee-distributed/enqueue-filter-source@1');

/** One check-and-set of one dedup key. */
export interface EnqueueFilterOp {
  /** 'bits': the key is new unless every listed bit is 1; then every bit is set to 1 (a Bloom filter).
   *  'member': SADD member; new when SADD returned 1 (an exact set). */
  type: 'bits' | 'member';
  /** Index into EnqueueFilterPlan.keys of the Redis key this op touches. */
  key: number;
  /** For 'bits': bit offsets as decimal strings (each below 2^32). */
  offsets?: string[];
  /** For 'member': the set member. */
  member?: string;
}

/** The check-and-set of a batch of dedup keys, as plain Redis operations. */
export interface EnqueueFilterPlan {
  /** Redis keys the ops use. On a Cluster all of them must share the queue's hash tag (see canAttach). */
  keys: string[];
  /** ops[i] belongs to the i-th dedup key passed to plan(). */
  ops: EnqueueFilterOp[];
  /** Optional: a hash the script HINCRBYs: `newField` by the number of keys found new, `filteredField` by the
   *  number of requests the filter rejected. */
  counter?: { key: number; newField: string; filteredField: string };
}

/** A dedup store that can describe its check-and-set (crawlee-bloom-dedup's Redis stores). */
export interface EnqueueFilterSource {
  /** The connection the store uses (an ioredis Redis or Cluster). */
  readonly redis: unknown;
  /** Describe the check-and-set of these dedup keys; must not touch Redis. */
  planEnqueueFilter(dedupKeys: string[]): EnqueueFilterPlan;
  /** Redis keys the store may touch (to check slots on a Cluster before attaching). */
  enqueueFilterKeys(): string[];
}

/** Options of {@link EnqueueFilterSink.attachEnqueueFilter}. */
export interface AttachEnqueueFilterOptions {
  /** Maps a request to its dedup key (default: its uniqueKey). */
  keyOf?: (request: { uniqueKey: string; url: string; method?: string }) => string;
  /** Told how many requests the filter rejected in each batch. */
  onFiltered?: (count: number) => void;
}

/** A request queue client that can run an enqueue filter inside its add script. */
export interface EnqueueFilterSink {
  /** True when this queue can run the source's plans in its own script: same Redis server and db, and on a Cluster
   *  every source key in the queue's slot. */
  canAttachEnqueueFilter(source: EnqueueFilterSource): boolean;
  /** From now on every add of this client runs the filter in its add script. */
  attachEnqueueFilter(source: EnqueueFilterSource, options?: AttachEnqueueFilterOptions): void;
  /** Stops filtering. */
  detachEnqueueFilter(): void;
}

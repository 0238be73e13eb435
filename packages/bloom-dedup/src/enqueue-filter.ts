/**
 * The enqueue-filter seam between crawlee-bloom-dedup and crawlee-redis-queue (docs/enqueue-filter-seam.md, `@1`).
 * Both packages declare these shapes themselves; neither imports the other.
 */

/** Set on a RequestQueueClient (crawlee-redis-queue) that can run a filter inside its add script. */
export const ENQUEUE_FILTER_SINK: unique symbol = Symbol.for('crawlee-distributed/enqueue-filter-sink@1') as never;
/** Set on a DedupStore (Redis stores only) that can describe its check-and-set as plain ops. */
export const ENQUEUE_FILTER_SOURCE: unique symbol = Symbol.for('crawlee-distributed/enqueue-filter-source@1') as never;
/** Set on a queue by crawlee-scrapy-fingerprint's `withScrapyFingerprint`: fills `uniqueKey` when missing. */
export const UNIQUE_KEY_TRANSFORM: unique symbol = Symbol.for('crawlee-distributed/unique-key-transform@1') as never;

/** One dedup key's check-and-set. */
export interface EnqueueFilterOp {
  /** 'bits': new unless every listed bit is 1, then every bit is set (Bloom). 'member': SADD, new when it returned 1. */
  type: 'bits' | 'member';
  /** Index into {@link EnqueueFilterPlan.keys} of the Redis key this op touches. */
  key: number;
  /** For 'bits': bit offsets as decimal strings, each \< 2^32. */
  offsets?: string[];
  /** For 'member': the set member. */
  member?: string;
}

/** What a queue script runs for a batch of dedup keys. */
export interface EnqueueFilterPlan {
  /** Redis keys the ops use. */
  keys: string[];
  /** ops[i] belongs to the i-th dedup key passed to `planEnqueueFilter`. */
  ops: EnqueueFilterOp[];
  /** Hash the script HINCRBYs: `newField` by keys found new, `filteredField` by requests rejected. */
  counter?: { key: number; newField: string; filteredField: string };
}

/** Implemented by the Redis stores of this package. */
export interface EnqueueFilterSource {
  /** The connection the store uses (an ioredis Redis or Cluster). */
  readonly redis: unknown;
  /** Describes the check-and-set of these dedup keys; does not touch Redis. */
  planEnqueueFilter(dedupKeys: string[]): EnqueueFilterPlan;
  /** Redis keys the store may touch (to check slots on a Cluster before attaching). */
  enqueueFilterKeys(): string[];
}

/** Request fields a sink hands to `keyOf`. */
export interface EnqueueFilterRequest {
  uniqueKey: string;
  url: string;
  method?: string;
}

/** Implemented by crawlee-redis-queue's RequestQueueClient. */
export interface EnqueueFilterSink {
  canAttachEnqueueFilter(source: EnqueueFilterSource): boolean;
  attachEnqueueFilter(
    source: EnqueueFilterSource,
    options?: { keyOf?: (request: EnqueueFilterRequest) => string; onFiltered?: (count: number) => void },
  ): void;
  detachEnqueueFilter(): void;
}

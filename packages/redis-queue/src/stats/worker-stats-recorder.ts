/** Where the enqueue filter counts the requests it rejected (a hash field of the dedup store). */
export interface DedupCounterLocation {
  /** Redis key of the dedup store's counter hash. */
  key: string;
  /** Field counting filtered requests. */
  field: string;
}

/**
 * What the queue client tells the worker-stats publisher. Every call only moves counters in memory (no Redis
 * command on the request path); the publisher writes them in one batched call per interval.
 */
export interface WorkerStatsRecorder {
  /** `listAndLockHead` locked `n` requests for this client (the first call starts publishing). @param n - count */
  locked(n: number): void;
  /** A request was marked handled and its handler succeeded. */
  handled(): void;
  /** A request was marked handled after its handler failed for good (Crawlee's failedRequestHandler path). */
  failed(): void;
  /** A request was given back for a retry (an update without `handledAt`: Crawlee's reclaim). */
  retried(): void;
  /**
   * `updateRequest` was called: counts it as handled, failed or retried.
   * @param request - the request as Crawlee passed it
   */
  updated(request: { handledAt?: unknown; userData?: unknown }): void;
  /**
   * Requests offered through a `RedisRequestQueue` that it did not take as new, whoever answered (Crawlee's request
   * cache, the queue, the dedup store): the crawl's duplicates filtered.
   * @param n - count
   */
  duplicates(n: number): void;
  /**
   * An add script answered; its duplicates (1/2: already present, 3: filtered) count unless the add came through a
   * `RedisRequestQueue`, which counts its own ({@link WorkerStatsRecorder.duplicates}).
   * @param codes - one code per request of add-requests.lua
   * @param dedup - where the attached enqueue filter counts, when one is attached
   */
  added(codes: readonly number[], dedup?: DedupCounterLocation): void;
  /** Publishes the last counters and marks the worker stopped; no more publishes after this. */
  close(): Promise<void>;
}

/** A recorder that does nothing (`workerStats: false`). */
export const NO_WORKER_STATS: WorkerStatsRecorder = {
  locked: () => undefined,
  handled: () => undefined,
  failed: () => undefined,
  retried: () => undefined,
  duplicates: () => undefined,
  updated: () => undefined,
  added: () => undefined,
  close: () => Promise.resolve(),
};

/** Crawlee's RequestState: ERROR_HANDLER (5) and ERROR (6) mean the handler failed (crawlee core/request.js). */
const FAILED_STATES = new Set([5, 6]);

/**
 * How an update of `request` counts: handled, failed (marked handled while Crawlee was in its error handler) or
 * retried (no `handledAt`: a reclaim).
 *
 * @param request - the request passed to `updateRequest`
 * @returns the kind of update
 */
export function classifyUpdate(request: { handledAt?: unknown; userData?: unknown }): 'handled' | 'failed' | 'retried' {
  if (request.handledAt === undefined || request.handledAt === null) return 'retried';
  const state = (request.userData as { __crawlee?: { state?: unknown } } | undefined)?.__crawlee?.state;
  return typeof state === 'number' && FAILED_STATES.has(state) ? 'failed' : 'handled';
}

import { Request, getRequestId, log } from 'crawlee';
import type {
  RequestOptions,
  RequestProvider,
  RequestQueueOperationInfo,
  Source,
  Statistics,
} from 'crawlee';
import type { DedupStore } from '../dedup-store.js';
import {
  ENQUEUE_FILTER_SINK,
  ENQUEUE_FILTER_SOURCE,
  UNIQUE_KEY_TRANSFORM,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
} from '../enqueue-filter.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { linkDedupStatistics, type FilteredCounter } from './dedup-statistics.js';

/** Request fields a dedup key is computed from. */
export interface DedupRequest {
  uniqueKey: string;
  url: string;
  method?: string;
}

/** Options of {@link withDedup}. */
export interface WithDedupOptions {
  /** Where seen keys are kept. */
  store: DedupStore;
  /** Maps a request to its dedup key. @defaultValue the request's `uniqueKey` */
  key?: (request: DedupRequest) => string;
  /** The crawler's `crawler.stats`, to report `dedup/filtered` there (also possible later with {@link reportDedupTo}). */
  statistics?: Statistics;
}

/** What `withDedup` did to a queue, readable as `queue[DEDUP_STATE]`. */
export interface DedupQueueState extends FilteredCounter {
  /** 'atomic': the queue's own add script runs the filter (seam); 'in-front': has → enqueue → add. */
  mode: 'atomic' | 'in-front';
  store: DedupStore;
}

/** Symbol under which a wrapped queue carries its {@link DedupQueueState}. */
export const DEDUP_STATE: unique symbol = Symbol.for('crawlee-bloom-dedup/state@1') as never;

type BatchAddRequestsResult = Awaited<ReturnType<RequestProvider['addRequests']>>;
type Queue = Pick<RequestProvider, 'addRequest' | 'addRequests'> & { client?: unknown };
type RequestLike = Source | string;
type Transform = (options: RequestOptions) => RequestOptions;

function hasOpen(store: DedupStore): store is DedupStore & { open(): Promise<void> } {
  return typeof (store as { open?: unknown }).open === 'function';
}

/**
 * Wraps a Crawlee queue's `addRequest` / `addRequests` (in place; the same object is returned) so requests whose
 * dedup key the store has seen are not enqueued. Filtered requests are reported `wasAlreadyPresent: true`, so they
 * use up neither `maxRequestsPerCrawl` nor `enqueueLinks({ limit })`. A key is recorded only after the queue holds
 * its request, so no request is lost when an enqueue fails.
 *
 * When the queue's client offers the enqueue-filter sink (crawlee-redis-queue) and can run this store's plans
 * (same Redis, same slot), check and enqueue happen in the queue's one script and this wrapper filters nothing itself.
 * The unique-key transform set by crawlee-scrapy-fingerprint is applied first, whatever the wrapping order.
 *
 * @param queue - a `RequestQueue` (MemoryStorage-backed or crawlee-redis-queue)
 * @param options - see {@link WithDedupOptions}
 * @returns the same queue
 * @throws {@link InvalidDedupOptionsError} without a store, or when the queue is already wrapped
 */
export function withDedup<Q extends Queue>(queue: Q, options: WithDedupOptions): Q {
  const { store } = options ?? {};
  if (!store || typeof store.add !== 'function' || typeof store.has !== 'function') {
    throw new InvalidDedupOptionsError('withDedup needs { store } with add() and has()');
  }
  if (!queue || typeof queue.addRequests !== 'function' || typeof queue.addRequest !== 'function') {
    throw new InvalidDedupOptionsError('withDedup needs a Crawlee queue (with addRequest and addRequests)');
  }
  if ((queue as Record<symbol, unknown>)[DEDUP_STATE]) {
    throw new InvalidDedupOptionsError('this queue is already wrapped by withDedup');
  }
  const keyOf = options.key ?? ((request: DedupRequest) => request.uniqueKey);
  const sink = (queue.client as Record<symbol, EnqueueFilterSink | undefined> | undefined)?.[ENQUEUE_FILTER_SINK];
  const source = (store as unknown as Record<symbol, EnqueueFilterSource | undefined>)[ENQUEUE_FILTER_SOURCE];
  const atomic = Boolean(sink && source && source.redis && sink.canAttachEnqueueFilter(source));
  const state: DedupQueueState = { mode: atomic ? 'atomic' : 'in-front', store, filtered: 0 };
  Object.defineProperty(queue, DEDUP_STATE, { value: state, enumerable: false });
  if (options.statistics) linkDedupStatistics(options.statistics, state);

  const countFiltered = async (count: number): Promise<void> => {
    if (count <= 0) return;
    state.filtered += count;
    await store.recordFiltered(count);
  };
  const ready = () => (hasOpen(store) ? store.open() : Promise.resolve());
  const originalAddRequest = queue.addRequest.bind(queue);
  const originalAddRequests = queue.addRequests.bind(queue);

  if (atomic && sink && source) {
    sink.attachEnqueueFilter(source, {
      keyOf: (request) => keyOf(request),
      // The queue script already bumped the store's shared counter; only the local statistic changes here.
      onFiltered: (count) => {
        if (count > 0) state.filtered += count;
      },
    });
    log.debug(`crawlee-bloom-dedup: the queue's add script runs the dedup filter`);
    // The stored filter's parameters are checked before the first script runs its plan.
    queue.addRequest = async (requestLike: Source, opts?: object) => {
      await ready();
      return originalAddRequest(requestLike, opts);
    };
    queue.addRequests = (async (requestsLike: Parameters<Q['addRequests']>[0], opts?: object) => {
      await ready();
      return originalAddRequests(requestsLike, opts);
    }) as Q['addRequests'];
    return queue;
  }

  const toRequest = (requestLike: RequestLike): Request => {
    const transform = (queue as Record<symbol, Transform | undefined>)[UNIQUE_KEY_TRANSFORM];
    let value: RequestOptions | Request = typeof requestLike === 'string' ? { url: requestLike } : (requestLike as RequestOptions);
    if (typeof transform === 'function') value = transform(value);
    return value instanceof Request ? value : new Request(value);
  };

  queue.addRequest = async (requestLike: Source, opts?: { forefront?: boolean }) => {
    if (requestLike && typeof requestLike === 'object' && 'requestsFromUrl' in requestLike) {
      return originalAddRequest(requestLike, opts);
    }
    await ready();
    const request = toRequest(requestLike);
    const key = keyOf(request);
    const [seen] = await store.has([key]);
    if (seen) {
      await countFiltered(1);
      request.id ??= getRequestId(request.uniqueKey);
      const info: RequestQueueOperationInfo = {
        wasAlreadyPresent: true,
        wasAlreadyHandled: false,
        requestId: request.id,
        uniqueKey: request.uniqueKey,
        forefront: opts?.forefront ?? false,
      };
      return info;
    }
    const info = await originalAddRequest(request, opts);
    await store.add([key]);
    return info;
  };

  queue.addRequests = (async (requestsLike: Iterable<RequestLike> | AsyncIterable<RequestLike>, opts?: object) => {
    await ready();
    const candidates: Request[] = [];
    const passthrough: Source[] = [];
    for await (const item of requestsLike) {
      if (item && typeof item === 'object' && 'requestsFromUrl' in item) passthrough.push(item);
      else candidates.push(toRequest(item));
    }
    const keys = candidates.map((request) => keyOf(request));
    const seen = candidates.length > 0 ? await store.has(keys) : [];
    const forward: Request[] = [];
    const forwardKeys: string[] = [];
    const firstUniqueKeyOf = new Map<string, string>();
    const filtered: BatchAddRequestsResult['processedRequests'] = [];
    candidates.forEach((request, i) => {
      const key = keys[i] as string;
      const earlier = firstUniqueKeyOf.get(key);
      // Same key twice in one batch: a second uniqueKey is a duplicate too; the same uniqueKey the queue merges itself.
      if (seen[i] || (earlier !== undefined && earlier !== request.uniqueKey)) {
        request.id ??= getRequestId(request.uniqueKey);
        filtered.push({ wasAlreadyPresent: true, wasAlreadyHandled: false, requestId: request.id, uniqueKey: request.uniqueKey });
        return;
      }
      firstUniqueKeyOf.set(key, request.uniqueKey);
      forward.push(request);
      forwardKeys.push(key);
    });
    const inner: BatchAddRequestsResult =
      forward.length > 0 || passthrough.length > 0
        ? await originalAddRequests([...forward, ...passthrough], opts)
        : { processedRequests: [], unprocessedRequests: [] };
    // Only requests the queue now holds (new or already there) count as seen; unprocessed ones stay unseen.
    const held = new Set(inner.processedRequests.map((r) => r.uniqueKey));
    const record = forwardKeys.filter((_, i) => held.has((forward[i] as Request).uniqueKey));
    if (record.length > 0) await store.add(record);
    await countFiltered(filtered.length);
    return {
      processedRequests: [...inner.processedRequests, ...filtered],
      unprocessedRequests: inner.unprocessedRequests,
    };
  }) as Q['addRequests'];
  return queue;
}

/**
 * Reports a wrapped queue's filtered count as `dedup/filtered` in a crawler's statistics (when `withDedup` ran
 * before the crawler existed).
 * @param queue - a queue returned by {@link withDedup}
 * @param statistics - `crawler.stats`
 * @throws {@link InvalidDedupOptionsError} when the queue was not wrapped
 */
export function reportDedupTo(queue: object, statistics: Statistics): void {
  const state = (queue as Record<symbol, DedupQueueState | undefined>)[DEDUP_STATE];
  if (!state) throw new InvalidDedupOptionsError('reportDedupTo needs a queue returned by withDedup');
  linkDedupStatistics(statistics, state);
}

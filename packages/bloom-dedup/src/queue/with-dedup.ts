import { Request, getRequestId, log } from 'crawlee';
import type { RequestOptions, RequestProvider, RequestQueueOperationInfo, Source, Statistics } from 'crawlee';
import type { DedupStore } from '../dedup-store.js';
import {
  ENQUEUE_FILTER_SINK,
  ENQUEUE_FILTER_SOURCE,
  UNIQUE_KEY_TRANSFORM,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
} from '@crawlee-distributed/redis-kit/seam';
import { ForgetUnsupportedError } from '../errors/forget-unsupported-error.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import { linkDedupStatistics, type FilteredCounter } from './dedup-statistics.js';
import { dontFilterPredicate, type DontFilterOption } from './dont-filter.js';
import { forgetFailedRequests } from './forget-failed.js';
import { addInFront, type InFrontContext, type InFrontMode } from './in-front.js';
import { SkippingSource } from './skipping-source.js';

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
  /**
   * Scrapy's `dont_filter`: such a request is enqueued without asking the store, and the store records nothing for it
   * (as scrapy-redis's scheduler does), so a shared set keeps holding exactly the fingerprints seen. `true` applies to
   * every request; a function decides per request.
   * @defaultValue requests whose `userData.dontFilter === true` (crawlee-scrapy-fingerprint's default too)
   */
  dontFilter?: DontFilterOption;
  /**
   * Failed requests do not count as seen in the next run: when Crawlee marks a request handled because its retries
   * are used up, its dedup key is forgotten in the store (`store.forget`), so the next run (a fresh queue) can
   * retry it. In this run a link to it is not enqueued again (the queue has it as handled).
   * @throws {@link ForgetUnsupportedError} from `withDedup` when the store cannot forget (a Bloom filter)
   * @defaultValue false
   */
  forgetFailed?: boolean;
}

/** What `withDedup` did to a queue, readable as `queue[DEDUP_STATE]`. */
export interface DedupQueueState extends FilteredCounter {
  /** 'atomic': the queue's own add script runs the filter (seam); 'in-front': this wrapper filters (see `inFront`). */
  mode: 'atomic' | 'in-front';
  /**
   * How it filters in front of the queue: 'claim' (the store's atomic `add` decides what is enqueued; stores that can
   * forget) or 'check' (`has` → enqueue → `add`; Bloom stores). Absent in 'atomic' mode. See the README,
   * "Sharing a dupefilter".
   */
  inFront?: InFrontMode;
  store: DedupStore;
}

/** Symbol under which a wrapped queue carries its {@link DedupQueueState}. */
export const DEDUP_STATE: unique symbol = Symbol.for('crawlee-bloom-dedup/state@1') as never;

type Queue = Pick<RequestProvider, 'addRequest' | 'addRequests'> & { client?: unknown };
type RequestLike = Source | string;
type Transform = (options: RequestOptions) => RequestOptions;

function hasOpen(store: DedupStore): store is DedupStore & { open(): Promise<void> } {
  return typeof (store as { open?: unknown }).open === 'function';
}

/** Whether a store's `forget` can succeed (`canForget`, else the presence of `forget`). */
function canForget(store: DedupStore): boolean {
  return typeof store.forget === 'function' && store.canForget !== false;
}

function isRequestsFromUrl(item: unknown): item is Source {
  return Boolean(item && typeof item === 'object' && 'requestsFromUrl' in item);
}

/**
 * Wraps a Crawlee queue's `addRequest` / `addRequests` (in place; the same object is returned) so requests whose
 * dedup key the store has seen are not enqueued. Filtered requests are reported `wasAlreadyPresent: true`, so they
 * use up neither `maxRequestsPerCrawl` nor `enqueueLinks({ limit })`. `dontFilter` requests bypass the store.
 *
 * How the check and the mark happen (README, "Sharing a dupefilter"):
 * - the queue's client offers the enqueue-filter sink (crawlee-redis-queue) and can run this store's plans (same
 *   Redis, same slot; on a sharded queue on a Cluster, the Redis store split into one part per shard, each in its
 *   shard's slot): check and enqueue are one script of the queue; this wrapper filters nothing itself;
 * - otherwise, a store that can forget (the exact set): the store's atomic `add` decides which requests are enqueued
 *   (exactly once across workers, a scrapy-redis worker's `SADD` included); a key whose enqueue fails is forgotten;
 * - otherwise (Bloom): `has` → enqueue → `add`, so a failed enqueue leaves nothing seen; exactly once inside this
 *   process, not across processes that filter in front of their own queues.
 * The unique-key transform set by crawlee-scrapy-fingerprint is applied first, whatever the wrapping order.
 *
 * @param queue - a `RequestQueue` (MemoryStorage-backed or crawlee-redis-queue)
 * @param options - see {@link WithDedupOptions}
 * @returns the same queue
 * @throws {@link InvalidDedupOptionsError} without a store, with a bad `dontFilter`, or when the queue is already wrapped
 * @throws {@link ForgetUnsupportedError} with `forgetFailed: true` and a store that cannot forget
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
  const dontFilter = dontFilterPredicate(options.dontFilter);
  const forgetFailed = options.forgetFailed ?? false;
  if (forgetFailed && !canForget(store)) {
    throw new ForgetUnsupportedError(store.constructor?.name ?? 'this store', 'withDedup({ forgetFailed: true })');
  }
  const markable = queue as unknown as { markRequestHandled?: (request: Request) => Promise<unknown> };
  if (forgetFailed && typeof markable.markRequestHandled !== 'function') {
    throw new InvalidDedupOptionsError('forgetFailed needs a Crawlee RequestQueue (with markRequestHandled)');
  }
  const keyOf = options.key ?? ((request: DedupRequest) => request.uniqueKey);
  const forgotten = new Set<string>();
  const skip = (request: Request) => dontFilter(request) || (forgotten.size > 0 && forgotten.has(keyOf(request)));
  const sink = (queue.client as Record<symbol, EnqueueFilterSink | undefined> | undefined)?.[ENQUEUE_FILTER_SINK];
  const ownSource = (store as unknown as Record<symbol, EnqueueFilterSource | undefined>)[ENQUEUE_FILTER_SOURCE];
  const skipping = ownSource?.redis ? new SkippingSource(ownSource) : undefined;
  const atomic = Boolean(sink && skipping && sink.canAttachEnqueueFilter(skipping.source));
  const inFront: InFrontMode = canForget(store) ? 'claim' : 'check';
  const state: DedupQueueState = atomic ? { mode: 'atomic', store, filtered: 0 } : { mode: 'in-front', inFront, store, filtered: 0 };
  Object.defineProperty(queue, DEDUP_STATE, { value: state, enumerable: false });
  if (options.statistics) linkDedupStatistics(options.statistics, state);
  if (forgetFailed) forgetFailedRequests(markable as { markRequestHandled: (r: Request) => Promise<unknown> }, store, keyOf, dontFilter, forgotten);

  const countFiltered = async (count: number): Promise<void> => {
    if (count <= 0) return;
    state.filtered += count;
    await store.recordFiltered(count);
  };
  const ready = () => (hasOpen(store) ? store.open() : Promise.resolve());
  const originalAddRequest = queue.addRequest.bind(queue);
  const originalAddRequests = queue.addRequests.bind(queue);
  const toRequest = (requestLike: RequestLike): Request => {
    const transform = (queue as Record<symbol, Transform | undefined>)[UNIQUE_KEY_TRANSFORM];
    let value: RequestOptions | Request = typeof requestLike === 'string' ? { url: requestLike } : (requestLike as RequestOptions);
    if (typeof transform === 'function') value = transform(value);
    return value instanceof Request ? value : new Request(value);
  };

  if (atomic && sink && skipping) {
    // Requests that must not touch the store reach the script under a marked key (see SkippingSource).
    const skipped = new Set<string>();
    sink.attachEnqueueFilter(skipping.source, {
      keyOf: (request) => (skipped.has(request.uniqueKey) ? skipping.marker + request.uniqueKey : keyOf(request)),
      // The queue script already bumped the store's shared counter; only the local statistic changes here.
      onFiltered: (count) => {
        if (count > 0) state.filtered += count;
      },
    });
    // A sharded queue on a Cluster runs one part of the store per shard: the split is recorded before the first add
    // (instead of opening the store unsplit, which would allocate a whole unsplit Bloom filter first).
    const split = skipping.split;
    const readyAtomic = split ? () => split.prepare() : ready;
    log.debug(`crawlee-bloom-dedup: the queue's add script runs the dedup filter${split ? `, split into ${split.parts.length} parts (one per shard)` : ''}`);
    const run = async <T>(requests: Request[], add: () => Promise<T>): Promise<T> => {
      const marked = requests.filter((r) => skip(r) && !skipped.has(r.uniqueKey)).map((r) => r.uniqueKey);
      for (const uniqueKey of marked) skipped.add(uniqueKey);
      try {
        return await add();
      } finally {
        for (const uniqueKey of marked) skipped.delete(uniqueKey);
        await skipping.settle();
      }
    };
    // The stored filter's parameters are checked before the first script runs its plan.
    queue.addRequest = async (requestLike: Source, opts?: object) => {
      await readyAtomic();
      if (isRequestsFromUrl(requestLike)) return originalAddRequest(requestLike, opts);
      const request = toRequest(requestLike);
      return run([request], () => originalAddRequest(request, opts));
    };
    queue.addRequests = (async (requestsLike: Iterable<RequestLike> | AsyncIterable<RequestLike>, opts?: object) => {
      await readyAtomic();
      const items: Array<Request | Source> = [];
      for await (const item of requestsLike) items.push(isRequestsFromUrl(item) ? item : toRequest(item));
      return run(items.filter((i): i is Request => i instanceof Request), () => originalAddRequests(items, opts));
    }) as Q['addRequests'];
    return queue;
  }

  const ctx: InFrontContext = { store, mode: inFront, keyOf, skip, inFlight: new Set(), countFiltered };

  queue.addRequest = async (requestLike: Source, opts?: { forefront?: boolean }) => {
    if (isRequestsFromUrl(requestLike)) return originalAddRequest(requestLike, opts);
    await ready();
    const request = toRequest(requestLike);
    let info: RequestQueueOperationInfo | undefined;
    const result = await addInFront(ctx, [request], [], async ([one]) => {
      info = await originalAddRequest(one as Request, opts);
      return { processedRequests: [info], unprocessedRequests: [] };
    });
    if (info) return info;
    const entry = result.processedRequests[0]!;
    request.id ??= getRequestId(request.uniqueKey);
    return { ...entry, requestId: request.id, forefront: opts?.forefront ?? false };
  };

  queue.addRequests = (async (requestsLike: Iterable<RequestLike> | AsyncIterable<RequestLike>, opts?: object) => {
    await ready();
    const candidates: Request[] = [];
    const passthrough: Source[] = [];
    for await (const item of requestsLike) {
      if (isRequestsFromUrl(item)) passthrough.push(item);
      else candidates.push(toRequest(item));
    }
    return addInFront(ctx, candidates, passthrough, (requests) => originalAddRequests(requests, opts));
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

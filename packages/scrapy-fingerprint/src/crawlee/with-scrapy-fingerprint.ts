import { checkOptionNames, UNIQUE_KEY_OPTIONS } from '../known-options.js';
import type { CrawleeRequestLike, ScrapyUniqueKeyOptions } from './options.js';
import { computeKey } from './unique-key.js';
// The uniqueKey seam is declared once in the private kit (bundled at build time); see docs/enqueue-filter-seam.md.
import { UNIQUE_KEY_TRANSFORM, uniqueKeySinkOf, type UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';

const WRAPPED = Symbol.for('crawlee-scrapy-fingerprint/wrapped');

/** The part of a Crawlee `RequestQueue` (any `RequestProvider`) that gets wrapped. */
export interface FingerprintableQueue {
  addRequest(request: unknown, options?: unknown): Promise<unknown>;
  addRequests(requests: unknown, options?: unknown): Promise<unknown>;
}

type ComputeUniqueKey = (o: { url: string; method?: string; payload?: unknown; keepUrlFragment?: boolean;
  useExtendedUniqueKey?: boolean }) => string;

/**
 * True when a Crawlee `Request` instance carries the uniqueKey Crawlee computed itself (not one the user chose).
 * Crawlee computes it in the constructor, so an instance always has one; it counts as automatic when it equals
 * what `Request.computeUniqueKey` gives for any combination of its two switches.
 */
function hasAutomaticUniqueKey(request: CrawleeRequestLike): boolean {
  const compute = (request.constructor as { computeUniqueKey?: ComputeUniqueKey } | undefined)?.computeUniqueKey;
  if (typeof compute !== 'function') return false;
  const { url, method, payload } = request;
  for (const keepUrlFragment of [false, true]) {
    for (const useExtendedUniqueKey of [false, true]) {
      try {
        if (compute({ url, method, payload, keepUrlFragment, useExtendedUniqueKey }) === request.uniqueKey) return true;
      } catch {
        // A URL Crawlee cannot normalize: fall through.
      }
    }
  }
  return false;
}

/**
 * Gives one request its fingerprint uniqueKey unless it has an explicit one. Plain objects are copied; Crawlee
 * `Request` instances are updated in place (their uniqueKey is a plain writable field).
 */
function withKey<T>(request: T, options: ScrapyUniqueKeyOptions): T {
  if (typeof request === 'string') return { url: request, uniqueKey: computeKey({ url: request }, options) } as T;
  if (request === null || typeof request !== 'object') return request;
  const r = request as unknown as CrawleeRequestLike & { requestsFromUrl?: string };
  if (typeof r.url !== 'string') return request; // e.g. { requestsFromUrl }: its requests come back through here
  const isInstance = Object.getPrototypeOf(r) !== Object.prototype && Object.getPrototypeOf(r) !== null;
  if (isInstance) {
    if (!r.uniqueKey || hasAutomaticUniqueKey(r)) r.uniqueKey = computeKey(r, options);
    return request;
  }
  if (typeof r.uniqueKey === 'string' && r.uniqueKey !== '') return request;
  return { ...r, uniqueKey: computeKey(r, options) } as T;
}

async function* mapAsync<T>(items: AsyncIterable<T>, options: ScrapyUniqueKeyOptions): AsyncGenerator<T> {
  for await (const item of items) yield withKey(item, options);
}

/**
 * Makes every request added to a Crawlee request queue without an explicit `uniqueKey` get the Scrapy fingerprint
 * as its uniqueKey, whatever the path: `crawler.run(startRequests)`, `crawler.addRequests`, `context.addRequests`,
 * `enqueueLinks`, `requestsFromUrl` (they all end in `addRequest` / `addRequests`). The queue then deduplicates the
 * way a Scrapy dupefilter does.
 *
 * On a crawlee-redis-queue `RedisRequestQueue` (from `openRedisRequestQueue`) nothing is wrapped: the transform is
 * registered through the uniqueKey seam (`Symbol.for('crawlee-distributed/unique-key-sink\@1')`), and the queue
 * applies it on every add path, its scrapy-redis start-URL feed included, so a feed item and the same URL added by a
 * worker get one uniqueKey. Any other queue gets its `addRequest` / `addRequests` wrapped in place (and when its
 * client offers the seam, the transform is registered there too, for the feed). Either way the transform is also
 * set under {@link UNIQUE_KEY_TRANSFORM} so `withDedup` (crawlee-bloom-dedup) dedups on the fingerprint in either
 * wrapping order. Calling it twice is a no-op.
 * @param queue - a `RequestQueue` (or any object with `addRequest` / `addRequests`)
 * @param options - recipe, `includeHeaders`, `keepFragments`, `dontFilter`
 * @returns the same queue object
 * @throws {@link InvalidUrlError} (from the wrapped methods) for a URL Scrapy rejects; nothing of that call is added
 */
export function withScrapyFingerprint<Q extends FingerprintableQueue>(queue: Q, options: ScrapyUniqueKeyOptions = {}): Q {
  checkOptionNames('withScrapyFingerprint', options, UNIQUE_KEY_OPTIONS);
  const q = queue as Q & { [WRAPPED]?: boolean; [UNIQUE_KEY_TRANSFORM]?: unknown };
  if (q[WRAPPED]) return queue;
  const transform: UniqueKeyTransform = <T>(requestOptions: T): T => withKey(requestOptions, options);
  Object.defineProperty(q, UNIQUE_KEY_TRANSFORM, { value: transform, configurable: true });
  Object.defineProperty(q, WRAPPED, { value: true, configurable: true });
  const queueSink = uniqueKeySinkOf(queue);
  if (queueSink) {
    queueSink.setUniqueKeyTransform(transform);
    return queue;
  }
  uniqueKeySinkOf((queue as { client?: unknown }).client)?.setUniqueKeyTransform(transform);
  const addRequest = queue.addRequest.bind(queue);
  const addRequests = queue.addRequests.bind(queue);
  const target = q as FingerprintableQueue;
  target.addRequest = async (request: unknown, opts?: unknown) => addRequest(withKey(request, options), opts);
  target.addRequests = async (requests: unknown, opts?: unknown) => {
    if (requests && typeof requests === 'object' && Symbol.asyncIterator in requests) {
      return addRequests(mapAsync(requests as AsyncIterable<unknown>, options), opts);
    }
    // Materialize first so a rejected URL throws before anything of the batch is added.
    const mapped = Array.from(requests as Iterable<unknown>, (r) => withKey(r, options));
    return addRequests(mapped, opts);
  };
  return queue;
}

import { RequestQueue } from 'crawlee';
import { UNIQUE_KEY_SINK, type UniqueKeySink, type UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import type { RedisRequestQueueClient } from './redis-request-queue-client.js';
import type { ProducerLease, ProducerLeaseOptions } from '../lease/producer-lease.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';

type RequestsLike = Parameters<RequestQueue['addRequests']>[0];
type AddOptions = Parameters<RequestQueue['addRequests']>[1];

/**
 * Requests Crawlee's `requestCache` keeps at most (Crawlee's RequestQueueV2 keeps 2,000,000: about 1 GiB of worker
 * heap at that size, and its LRU slows every add as it grows). It is a shortcut only: the queue's dedup is atomic in
 * Redis, and a request locked here whose entry was evicted is fetched again (a lock prolong and a read). The bound
 * holds the requests of a lock batch many times over, so an entry is evicted before it is fetched only when more
 * than this many other requests were added or locked by this worker in the meantime.
 */
export const REQUEST_CACHE_MAX = 100_000;
/** Slots of Crawlee's `requestSeenCache` (Crawlee's default: 1,000,000, about 80 MiB once full). A miss only
 * re-sends a request that Redis then reports as already present. */
export const REQUEST_SEEN_CACHE_SLOTS = 100_000;

async function* mapAsync<T>(items: AsyncIterable<T>, transform: UniqueKeyTransform): AsyncGenerator<T> {
  for await (const item of items) yield transform(item);
}

/**
 * Crawlee's own `RequestQueue` (RequestQueueV2, the locking queue) on a Redis request queue, as
 * `openRedisRequestQueue` returns it: `client` is typed as this package's {@link RedisRequestQueueClient}, and
 * {@link RedisRequestQueue.releaseLocks} needs no cast. A uniqueKey transform registered through the uniqueKey seam
 * (`withScrapyFingerprint`) is applied here to every request before Crawlee computes its id (so Crawlee's local
 * caches agree with Redis), and by the client to start-URL feed items: every add path, one transform.
 */
export class RedisRequestQueue extends RequestQueue implements UniqueKeySink {
  /** This package's client of the Redis queue. */
  declare client: RedisRequestQueueClient;

  /**
   * Crawlee's RequestQueue with its local caches bounded ({@link REQUEST_CACHE_MAX}, {@link REQUEST_SEEN_CACHE_SLOTS}):
   * a worker's heap stays flat however many requests it adds. Arguments as Crawlee's `RequestQueue`.
   */
  constructor(...args: ConstructorParameters<typeof RequestQueue>) {
    super(...args);
    // The LRU's bound is a public field it reads on every add; it is still empty here. The dedup cache's class is
    // not exported by Crawlee: a smaller one is built through its own constructor (`constructor(size)`).
    this.requestCache.maxLength = REQUEST_CACHE_MAX;
    type SeenCache = RedisRequestQueue['requestSeenCache'];
    this.requestSeenCache = new (this.requestSeenCache.constructor as new (size: number) => SeenCache)(REQUEST_SEEN_CACHE_SLOTS);
  }

  /** This queue is a sink of the uniqueKey seam: every add path of it applies the registered transform. */
  get [UNIQUE_KEY_SINK](): UniqueKeySink {
    return this;
  }

  /**
   * Registers the uniqueKey transform for every add path of this queue (API adds, enqueueLinks, the start-URL feed).
   * @param transform - the transform, or undefined to remove it
   */
  setUniqueKeyTransform(transform: UniqueKeyTransform | undefined): void {
    this.client.setUniqueKeyTransform(transform);
  }

  /** Adds one request (see Crawlee's `RequestQueue.addRequest`), its uniqueKey from the registered transform. */
  override async addRequest(...[requestLike, options]: Parameters<RequestQueue['addRequest']>): ReturnType<RequestQueue['addRequest']> {
    const transform = this.client.uniqueKeyTransform;
    return super.addRequest(transform ? transform(requestLike) : requestLike, options);
  }

  /** Adds requests (see Crawlee's `RequestQueue.addRequests`), their uniqueKeys from the registered transform. A
   * transform that rejects a URL throws before anything of the call is added. */
  override async addRequests(requestsLike: RequestsLike, options?: AddOptions): ReturnType<RequestQueue['addRequests']> {
    const transform = this.client.uniqueKeyTransform;
    if (!transform) return super.addRequests(requestsLike, options);
    if (Symbol.asyncIterator in requestsLike) return super.addRequests(mapAsync(requestsLike as AsyncIterable<never>, transform), options);
    return super.addRequests(Array.from(requestsLike as Iterable<unknown>, (r) => transform(r)) as RequestsLike, options);
  }

  /**
   * Keeps the queue open for a producer (see {@link RedisRequestQueueClient.holdOpen}): no worker finishes while the
   * lease is alive. `const lease = await queue.holdOpen({ leaseSecs: 30 }); ...add...; await lease.release();`
   * @param options - `leaseSecs` (1..3600, default 30), `renewEverySecs`, `id`
   * @returns the lease
   */
  holdOpen(options?: ProducerLeaseOptions): Promise<ProducerLease> {
    return this.client.holdOpen(options);
  }

  /**
   * Pushes the host's next allowed time for the whole fleet to at least now + delaySecs (Redis time); see
   * {@link RedisRequestQueueClient.backOffHost}.
   * @param host - a host key, `queue.hostKeyOf(url)`
   * @param delaySecs - seconds, 0 to 604,800
   * @throws {@link InvalidOptionsError} for a bad host or delay; {@link PolitenessMismatchError} without politeness
   */
  backOffHost(host: string, delaySecs: number): Promise<void> {
    return this.client.backOffHost(host, delaySecs);
  }

  /** Host key of a URL with this queue's hostKey. @param url - an absolute URL */
  hostKeyOf(url: string): string {
    return this.client.hostKeyOf(url);
  }

  /** Politeness state: hosts with available requests, hosts waiting, the longest current wait in seconds, in-flight
   * per host (top N); see {@link RedisRequestQueueClient.politenessStats}. @param options - `top` (default 20) */
  politenessStats(options?: { top?: number }): Promise<PolitenessStats> {
    return this.client.politenessStats(options);
  }

  /**
   * Releases every lock this queue's client still holds (see {@link RedisRequestQueueClient.releaseLocks}); call it
   * when a worker stops early or on SIGTERM.
   * @returns the number of locks released
   */
  releaseLocks(): Promise<number> {
    return this.client.releaseLocks();
  }
}

// Crawlee's storage manager looks classes up by name (a subclass otherwise breaks `RedisRequestQueue.open()`).
Object.defineProperty(RedisRequestQueue, 'name', { value: 'RequestQueue' });

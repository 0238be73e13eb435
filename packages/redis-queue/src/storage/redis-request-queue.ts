import { RequestQueue } from 'crawlee';
import { UNIQUE_KEY_SINK, type UniqueKeySink, type UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import type { RedisRequestQueueClient } from './redis-request-queue-client.js';
import { countedByQueue } from '../stats/queue-level-adds.js';
import type { ProducerLease, ProducerLeaseOptions } from '../lease/producer-lease.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';

type RequestsLike = Parameters<RequestQueue['addRequests']>[0];
type AddOptions = Parameters<RequestQueue['addRequests']>[1];

async function* mapAsync<T>(items: AsyncIterable<T>, transform: (item: T) => T): AsyncGenerator<T> {
  for await (const item of items) yield transform(item);
}

/** A `requestsFromUrl` source (its requests are added, and counted, by a nested `addRequests`). */
function isUrlList(item: unknown): boolean {
  return typeof item === 'object' && item !== null && 'requestsFromUrl' in item;
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

  /** Adds one request (see Crawlee's `RequestQueue.addRequest`), its uniqueKey from the registered transform. A
   * request not taken as new counts as a duplicate filtered (worker stats), whoever answered. */
  override async addRequest(...[requestLike, options]: Parameters<RequestQueue['addRequest']>): ReturnType<RequestQueue['addRequest']> {
    const transform = this.client.uniqueKeyTransform;
    const info = await countedByQueue(() => super.addRequest(transform ? transform(requestLike) : requestLike, options));
    if (info.wasAlreadyPresent) this.client.recordDuplicates(1);
    return info;
  }

  /** Adds requests (see Crawlee's `RequestQueue.addRequests`), their uniqueKeys from the registered transform. A
   * transform that rejects a URL throws before anything of the call is added. Requests not taken as new count as
   * duplicates filtered (worker stats), whoever answered: Crawlee's request cache, the queue, the dedup store. */
  override async addRequests(requestsLike: RequestsLike, options?: AddOptions): ReturnType<RequestQueue['addRequests']> {
    const transform: UniqueKeyTransform | undefined = this.client.uniqueKeyTransform;
    let offered = 0;
    const visit = (item: unknown): unknown => {
      if (!isUrlList(item)) offered++;
      return transform ? transform(item) : item;
    };
    const items = Symbol.asyncIterator in requestsLike ? mapAsync(requestsLike as AsyncIterable<unknown>, visit) : Array.from(requestsLike as Iterable<unknown>, visit);
    const result = await countedByQueue(() => super.addRequests(items as RequestsLike, options));
    // Crawlee answers a uniqueKey repeated inside one call once (the repeats get no entry): offered less taken.
    const taken = result.processedRequests.filter((r) => !r.wasAlreadyPresent).length + result.unprocessedRequests.length;
    this.client.recordDuplicates(Math.max(0, offered - taken));
    return result;
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

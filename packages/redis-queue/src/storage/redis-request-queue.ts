import { Configuration, RequestQueue } from 'crawlee';
import { UNIQUE_KEY_SINK, type UniqueKeySink, type UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import type { RedisRequestQueueClient } from './redis-request-queue-client.js';
import { countedByQueue } from '../stats/queue-level-adds.js';
import type { ProducerLease, ProducerLeaseOptions } from '../lease/producer-lease.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';
import type { RedisStorageClient } from './redis-storage-client.js';
import { UnsupportedOperationError } from '../errors/unsupported-operation-error.js';

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
  #storageClient: RedisStorageClient | undefined;
  #ownsStorageClient = false;
  #crawlerConfig: Configuration | undefined;
  #closing: Promise<number> | undefined;

  /**
   * Records the storage client this queue lives on (set by `openRedisRequestQueue`).
   * @param storageClient - the storage client
   * @param owned - true when `openRedisRequestQueue` created it, so {@link RedisRequestQueue.close} closes it
   * @internal
   */
  bindStorageClient(storageClient: RedisStorageClient, owned: boolean): void {
    this.#storageClient = storageClient;
    this.#ownsStorageClient = owned;
  }

  /**
   * The `RedisStorageClient` this queue lives on.
   * @throws {@link UnsupportedOperationError} for a queue not opened by `openRedisRequestQueue`
   */
  get storageClient(): RedisStorageClient {
    if (!this.#storageClient) {
      throw new UnsupportedOperationError(
        'this RedisRequestQueue was not opened by openRedisRequestQueue(), so it knows no storage client: open it with openRedisRequestQueue(name, { storageClient })',
      );
    }
    return this.#storageClient;
  }

  /**
   * A Crawlee `Configuration` for the crawler of this queue, its second argument
   * (`new CheerioCrawler(options, requestQueue.crawlerConfig)`): its storage client is this queue's
   * `RedisStorageClient`, so the crawler's `pushData` of every worker lands in ONE Redis dataset named after the
   * queue (`{<keyPrefix>:ds:<name>}:items`, read back with `Dataset.open(name, { config })`, `crawler.getData()` or
   * `crawlee-redis export <name>`), unless the storage client was made with `datasets: 'local'`. Key-value stores (crawler statistics, session pool)
   * stay in this process's memory, so nothing is written to `./storage` and workers in one folder overwrite nothing.
   * One per queue (built on first use).
   * @throws {@link UnsupportedOperationError} for a queue not opened by `openRedisRequestQueue`
   */
  get crawlerConfig(): Configuration {
    this.#crawlerConfig ??= new Configuration({ storageClient: this.storageClient, defaultDatasetId: this.name ?? this.id });
    return this.#crawlerConfig;
  }

  /**
   * Finishes this worker's use of the queue; call it once `crawler.run()` has returned (or after `crawler.stop()`).
   * Releases the locks the worker still holds and the producer leases it took, publishes its last worker stats
   * (state `stopped`, final counters: `crawlee-redis workers` shows it finished and `stats` adds up), then closes
   * the storage client `openRedisRequestQueue` created for it, with the connection it created from a URL. An ioredis
   * connection you passed (`redis: yourConnection`) and a storage client you passed stay open: quit or close them
   * after this call (it publishes through them). Idempotent.
   * @returns the number of locks it released (requests this worker still held, e.g. after `crawler.stop()`)
   * @throws {@link RedisUnreachableError} when Redis cannot be reached to release the locks (the storage client it
   *   created is closed all the same)
   */
  close(): Promise<number> {
    this.#closing ??= (async () => {
      try {
        return await this.client.close();
      } finally {
        // Even when Redis is gone: a connection left open would keep the process alive.
        if (this.#ownsStorageClient) await this.#storageClient?.close();
      }
    })();
    return this.#closing;
  }

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

import { log } from 'crawlee';
import type { Configuration } from 'crawlee';
import { assertQueueName } from './core/queue-name.js';
import { InvalidOptionsError } from './errors/invalid-options-error.js';
import { lockMsOf } from './queue/lock-secs.js';
import { numberOption } from './options/option-ranges.js';
import { RedisRequestQueue } from './storage/redis-request-queue.js';
import { RedisStorageClient, STORAGE_CLIENT_OPTIONS, type RedisStorageClientOptions, type StartUrlFeedOptions } from './storage/redis-storage-client.js';
import { checkKnownOptions, type KnownOptions } from './options/known-options.js';

/** Options of {@link openRedisRequestQueue}. */
export interface OpenRedisRequestQueueOptions extends Omit<RedisStorageClientOptions, 'startUrls'> {
  /** The crawler's `requestHandlerTimeoutSecs`; the lock time becomes `max(requestHandlerTimeoutSecs + 5, 60)`, as
   * Crawlee's BasicCrawler computes it. 0.001 to 2,592,000 (30 days). @defaultValue 60 */
  requestHandlerTimeoutSecs?: number;
  /** Lock time in seconds, 0.001 to 2,592,000 (30 days); overrides the one derived from `requestHandlerTimeoutSecs`. */
  lockSecs?: number;
  /** Drain a scrapy-redis start-URL feed into the queue: a key, or `true` for `<name>:start_urls` (or give
   * `startUrls.keys` for several keys in priority order). */
  startUrlsKey?: string | true;
  /** More start-URL feed settings (`keys`, `type`, `format`, `batchSize`, `alwaysEnqueue`, `maxIdleSecs`). */
  startUrls?: Omit<StartUrlFeedOptions, 'key'>;
  /** An existing storage client to reuse (its connection and key prefix win over `redis`/`keyPrefix`). */
  storageClient?: RedisStorageClient;
  /** Crawlee configuration for the queue (event manager, `purgeOnStart`). @defaultValue the global configuration */
  config?: Configuration;
  /** See {@link RedisStorageClientOptions.fastProlong}. On by default here, because the queue this function returns
   * is always driven by Crawlee's RequestQueue, which prolongs every request's lock as it takes it from its local
   * buffer; with `false`, that prolong is one script call per request.
   * Ignored when `storageClient` is passed (its own setting applies). @defaultValue true */
  fastProlong?: boolean;
}

/** Every option of {@link OpenRedisRequestQueueOptions}: the storage client's and this function's own. */
const OPEN_OPTIONS: KnownOptions<OpenRedisRequestQueueOptions> = {
  ...STORAGE_CLIENT_OPTIONS,
  requestHandlerTimeoutSecs: true,
  lockSecs: true,
  startUrlsKey: true,
  startUrls: true,
  storageClient: true,
  config: true,
  fastProlong: true,
};

/**
 * Opens the named Redis request queue as Crawlee's own `RequestQueue` (RequestQueueV2, the locking queue), ready to
 * pass as a crawler's `requestQueue`. Every process that opens the same name on the same Redis and key prefix shares
 * it. Crawlee's `purgeOnStart` does not empty it (the storage client's `purge()` leaves Redis alone).
 *
 * @param name - queue name (not `'default'`: Crawlee drops a queue of that name on a second `crawler.run()`)
 * @param options - connection, lock time, feed
 * @returns the queue: Crawlee's `RequestQueue` with `client` typed as {@link RedisRequestQueueClient} and
 *   {@link RedisRequestQueue.releaseLocks}
 * @throws {@link InvalidOptionsError} for an empty name, `'default'`, whitespace around it, control characters, braces, bad options, or storage-client options
 *   (`redis`, `keyPrefix`, `politeness`, ...) passed together with `storageClient`
 * @throws {@link RedisUnreachableError} when a connection created from a URL does not connect within
 *   `connectTimeoutSecs` (default 10 s); the connection is closed
 *
 * @example
 * ```ts
 * const requestQueue = await openRedisRequestQueue('my-crawl', { redis: process.env.REDIS_URL, requestHandlerTimeoutSecs: 60 });
 * const crawler = new CheerioCrawler({ requestQueue, requestHandlerTimeoutSecs: 60, async requestHandler() {} });
 * ```
 */
export async function openRedisRequestQueue(name: string, options: OpenRedisRequestQueueOptions = {}): Promise<RedisRequestQueue> {
  assertQueueName(name);
  checkKnownOptions<OpenRedisRequestQueueOptions>('openRedisRequestQueue options', options, OPEN_OPTIONS);
  const { requestHandlerTimeoutSecs, lockSecs, startUrlsKey, startUrls, storageClient: given, config, fastProlong = true, ...clientOptions } = options;
  if (lockSecs !== undefined) lockMsOf('lockSecs', lockSecs);
  const handlerSecs = numberOption('requestHandlerTimeoutSecs', requestHandlerTimeoutSecs);
  const requestLockSecs = lockSecs ?? Math.max(handlerSecs + 5, 60);
  lockMsOf('the lock time derived from requestHandlerTimeoutSecs (+5 s)', requestLockSecs);
  const feed =
    startUrlsKey === undefined && startUrls?.keys === undefined ? undefined : { ...startUrls, key: startUrlsKey === true ? undefined : startUrlsKey };
  if (given) {
    // The storage client is built already: its connection, politeness and other settings are the ones that apply.
    // Dropping a setting silently (a politeness limit, say) would let a fleet run without it.
    const ignored = Object.entries(clientOptions).filter(([, value]) => value !== undefined).map(([key]) => key);
    if (ignored.length > 0) {
      throw new InvalidOptionsError(
        `openRedisRequestQueue: ${ignored.join(', ')} cannot be combined with storageClient (the storage client's own ` +
          'settings apply); set them on the RedisStorageClient instead',
      );
    }
  }
  const storageClient = given ?? new RedisStorageClient({ ...clientOptions, fastProlong, startUrls: feed });
  if (given && feed) log.warning('openRedisRequestQueue: startUrlsKey is ignored when a storageClient is passed; set startUrls on the storage client');
  // Constructed directly rather than through RequestQueue.open(): Crawlee's storage cache is keyed by name only, so a
  // second open of the same name with another Redis or key prefix would silently return the first queue.
  const info = await storageClient
    .requestQueues()
    .getOrCreate(name)
    .catch(async (error: unknown) => {
      // A connection this call created must not stay open (or keep retrying) after the open failed.
      if (!given) await storageClient.close();
      throw error;
    });
  const queue = new RedisRequestQueue({ id: info.id, name: info.name, client: storageClient }, config);
  // What RequestQueue.open() sets after opening (private fields in the typings).
  Object.assign(queue, { initialCount: info.totalRequestCount, initialHandledCount: info.handledRequestCount });
  queue.requestLockSecs = requestLockSecs;
  queue.bindStorageClient(storageClient, !given);
  return queue;
}

import { MemoryStorage } from 'crawlee';
import type { RedisOptions } from 'ioredis';
import type {
  RequestQueueClient,
  RequestQueueCollectionClient,
  StorageClient,
} from '../crawlee-types.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ConnectionHandle, type RedisConnection, type RedisConnectionOption } from '../redis/connection.js';
import { assertKeyPrefix, defaultStartUrlsKey } from '../redis/keys.js';
import type { QueueContext, StartUrlFeedSettings } from '../queue/queue-context.js';
import { RedisRequestQueueClient } from './redis-request-queue-client.js';
import { RedisRequestQueueCollectionClient } from './request-queue-collection-client.js';
import { randomUUID } from 'node:crypto';
import { RedisDatasetClient } from '../dataset/redis-dataset-client.js';
import { RedisDatasetCollectionClient } from '../dataset/redis-dataset-collection-client.js';
import { workerStatsSettings, type WorkerStatsOptions } from '../stats/worker-stats-options.js';
import { WorkerStatsRegistry } from '../stats/worker-stats-registry.js';

/** Options of the start-URL feed (a scrapy-redis `<name>:start_urls` list drained into the queue by idle workers). */
export interface StartUrlFeedOptions {
  /** The Redis list, or a function of the queue name. @defaultValue `<queueName>:start_urls` */
  key?: string | ((queueName: string) => string);
  /** Items moved per drain. @defaultValue 100 */
  batchSize?: number;
  /** Enqueue every feed item even when its uniqueKey was seen (scrapy-redis' feed requests are `dont_filter`).
   * @defaultValue false (feed items are deduplicated by uniqueKey like every other request) */
  alwaysEnqueue?: boolean;
}

/** Options of {@link RedisStorageClient}. */
export interface RedisStorageClientOptions {
  /** A `redis://` URL, or an ioredis `Redis` or `Cluster` (ioredis 5 or 6; never closed by this package).
   * @defaultValue `process.env.REDIS_URL`, else `'redis://127.0.0.1:6379'` */
  redis?: RedisConnectionOption;
  /** Extra ioredis options for a connection created from a URL. For a connection you pass yourself,
   * `enableAutoPipelining: true` is worth setting too: it sends the commands of many concurrent crawler tasks in one
   * write. @defaultValue `{ maxRetriesPerRequest: null, enableAutoPipelining: true }` */
  redisOptions?: RedisOptions;
  /** Seconds the FIRST connect of a connection created from a URL may take; after that the operation waiting for it
   * (e.g. `openRedisRequestQueue`) rejects with {@link RedisUnreachableError} and the connection is closed, so a wrong
   * URL fails fast. Once connected, the connection waits through Redis restarts. Ignored for a connection you pass.
   * @defaultValue 10 */
  connectTimeoutSecs?: number;
  /** Prefix of every key; a queue's keys share the hash tag `{<keyPrefix>:rq:<name>}`. @defaultValue `'crawlee'` */
  keyPrefix?: string;
  /** Where datasets and key-value stores live (they stay per process: Crawlee keeps statistics and session-pool
   * state in the default key-value store). @defaultValue `new MemoryStorage({ persistStorage: false })` */
  localStorageClient?: StorageClient;
  /** Where datasets live: `'local'` on {@link RedisStorageClientOptions.localStorageClient} (per process), or
   * `'redis'`: one Redis list per dataset (`{<keyPrefix>:ds:<name>}:items`) that every worker's `pushData` appends
   * to, read whole by `getData`/`forEach`/`exportToJSON` and `exportDataset`. Key-value stores stay local either way.
   * @defaultValue 'local' */
  datasets?: 'local' | 'redis';
  /** `prolongRequestLock` extends from the current expiry (`'expiry'`, Crawlee MemoryStorage semantics) or from now.
   * @defaultValue 'expiry' */
  prolongLockFrom?: 'expiry' | 'now';
  /** Requests per add script call. @defaultValue 500 */
  addBatchSize?: number;
  /** Expired locks moved back per `listAndLockHead`. @defaultValue 1000 */
  recoverLimit?: number;
  /** Serve `getRequest` for a freshly locked request from the JSON `listAndLockHead` returned (one round trip less
   * per request). @defaultValue true */
  cacheLockedRequests?: boolean;
  /** For the `prolongRequestLock` Crawlee makes as it takes a request from its local buffer: a lock this client took
   * less than half a lock time ago cannot be held by anyone else, so that prolong answers without asking Redis.
   * With the default expiry rule the lock is taken for twice the lock time at once (what that prolong would set:
   * the same expiry, one script call less per request); with `prolongLockFrom: 'now'` the prolong is sent in the
   * background. The trade-off: a change by someone else between the lock and that prolong (an admin purge, another
   * client marking the request handled) is not reported by it, and a request locked but never prolonged (left in a
   * buffer when its worker dies) comes back after twice the lock time instead of once.
   * `openRedisRequestQueue` turns this on by default. @defaultValue false (`listAndLockHead` locks exactly for
   * `lockSecs`, as Crawlee's MemoryStorage does) */
  fastProlong?: boolean;
  /** Drain a scrapy-redis start-URL list into each queue when it has nothing available: `true` for
   * `<name>:start_urls`, or settings. @defaultValue undefined (no feed) */
  startUrls?: boolean | StartUrlFeedOptions;
  /** Worker stats each queue client publishes under the queue's hash tag (`{p:rq:name}:worker:<id>` with a TTL,
   * `:workers`, crawl-wide counters in `:stats`), read by `RedisQueueAdmin.workers()` and the `crawlee-redis` CLI.
   * Counters move in memory; one script call per interval writes them, from an unref'd timer started by the first
   * `listAndLockHead`. `false` publishes nothing. @defaultValue `true` (`{ intervalSecs: 15, ttlSecs: 45,
   * deadRetentionSecs: 600 }`) */
  workerStats?: boolean | WorkerStatsOptions;
  /** Tests only: milliseconds added to Redis `TIME` in every script, read before each operation (lets a test move a
   * queue's clock forward; it is still Redis time, never the worker's). @defaultValue 0 */
  clockOffsetMs?: number | (() => number);
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < 1) throw new InvalidOptionsError(`${name} must be a positive integer (got ${String(value)})`);
  return result;
}

function feedSettings(option: RedisStorageClientOptions['startUrls']): StartUrlFeedSettings | undefined {
  if (!option) return undefined;
  const options: StartUrlFeedOptions = option === true ? {} : option;
  const key = options.key;
  return {
    key: typeof key === 'function' ? key : typeof key === 'string' ? () => key : defaultStartUrlsKey,
    batchSize: positiveInteger('startUrls.batchSize', options.batchSize, 100),
    alwaysEnqueue: options.alwaysEnqueue ?? false,
  };
}

/**
 * A Crawlee `StorageClient` whose request queues live in Redis, shared by every process that opens the same name;
 * datasets and key-value stores stay on a per-process client. `purge()` (Crawlee's `purgeOnStart`) never touches
 * Redis: a shared queue is only emptied explicitly (`RedisQueueAdmin.purge()` or `queue.drop()`).
 *
 * @example
 * ```ts
 * const storageClient = new RedisStorageClient({ redis: 'redis://127.0.0.1:6379' });
 * const queue = await RequestQueue.open('my-crawl', { storageClient });
 * ```
 */
export class RedisStorageClient implements StorageClient {
  /** The Redis connection of the queues. */
  readonly redis: RedisConnection;
  /** The key prefix. */
  readonly keyPrefix: string;
  /** Where datasets and key-value stores live. */
  readonly localStorageClient: StorageClient;
  private readonly connection: ConnectionHandle;
  private readonly ctx: QueueContext;
  private readonly redisDatasets: boolean;

  /**
   * @param options - see {@link RedisStorageClientOptions}
   * @throws {@link InvalidOptionsError} for a bad URL, key prefix, numeric option or `workerStats` setting
   */
  constructor(options: RedisStorageClientOptions = {}) {
    const keyPrefix = options.keyPrefix ?? 'crawlee';
    assertKeyPrefix('keyPrefix', keyPrefix);
    const prolongLockFrom = options.prolongLockFrom ?? 'expiry';
    if (prolongLockFrom !== 'expiry' && prolongLockFrom !== 'now') {
      throw new InvalidOptionsError(`prolongLockFrom must be 'expiry' or 'now' (got ${JSON.stringify(prolongLockFrom)})`);
    }
    const datasets = options.datasets ?? 'local';
    if (datasets !== 'local' && datasets !== 'redis') {
      throw new InvalidOptionsError(`datasets must be 'local' or 'redis' (got ${JSON.stringify(datasets)})`);
    }
    this.redisDatasets = datasets === 'redis';
    const clock = options.clockOffsetMs ?? 0;
    const feed = feedSettings(options.startUrls);
    const stats = workerStatsSettings(options.workerStats);
    this.connection = new ConnectionHandle(options.redis, options.redisOptions, options.connectTimeoutSecs);
    this.redis = this.connection.redis;
    this.keyPrefix = keyPrefix;
    this.localStorageClient = options.localStorageClient ?? new MemoryStorage({ persistStorage: false, writeMetadata: false });
    this.ctx = {
      connection: this.connection,
      keyPrefix,
      clockOffsetMs: typeof clock === 'function' ? clock : () => clock,
      prolongLockFrom,
      addBatchSize: positiveInteger('addBatchSize', options.addBatchSize, 500),
      recoverLimit: positiveInteger('recoverLimit', options.recoverLimit, 1000),
      cacheLockedRequests: options.cacheLockedRequests ?? true,
      fastProlong: options.fastProlong ?? false,
      startUrls: feed,
      workerStats: stats && new WorkerStatsRegistry(stats),
    };
  }

  /** The datasets: in Redis with `datasets: 'redis'`, else those of the local storage client. */
  datasets(): ReturnType<StorageClient['datasets']> {
    if (this.redisDatasets) return new RedisDatasetCollectionClient(this.ctx);
    return this.localStorageClient.datasets();
  }

  /** A dataset: in Redis with `datasets: 'redis'`, else of the local storage client. @param id - dataset id */
  dataset(id: string): ReturnType<StorageClient['dataset']> {
    if (this.redisDatasets) return new RedisDatasetClient(this.ctx, id);
    return this.localStorageClient.dataset(id);
  }

  /** Key-value stores of the local storage client. */
  keyValueStores(): ReturnType<StorageClient['keyValueStores']> {
    return this.localStorageClient.keyValueStores();
  }

  /** A key-value store of the local storage client. @param id - store id */
  keyValueStore(id: string): ReturnType<StorageClient['keyValueStore']> {
    return this.localStorageClient.keyValueStore(id);
  }

  /** The Redis request queues (get or create by name, list). */
  requestQueues(): RequestQueueCollectionClient {
    return new RedisRequestQueueCollectionClient(this.ctx);
  }

  /**
   * The client of one Redis request queue.
   *
   * @param id - queue id (for a named queue, its name)
   * @param options - `clientKey` (the lock owner; Crawlee passes a random one per RequestQueue)
   * @returns the queue client
   */
  requestQueue(id: string, options: { clientKey?: string; timeoutSecs?: number } = {}): RequestQueueClient {
    return new RedisRequestQueueClient(this.ctx, id, options.clientKey ?? randomUUID());
  }

  /** Called by Crawlee at start (`purgeOnStart`): purges the local datasets and key-value stores only. Redis
   * queues and Redis datasets are shared and are never purged here. */
  async purge(): Promise<void> {
    await this.localStorageClient.purge?.();
  }

  /** Called by Crawlee at the end of `crawler.run()`: tears the local client down; the Redis connection stays
   * usable (a crawler may run again). Use {@link RedisStorageClient.close} when done. */
  async teardown(): Promise<void> {
    await this.localStorageClient.teardown?.();
  }

  /** Publishes the last worker stats of its queue clients (state `stopped`), then closes the Redis connection if
   * this client created it (from a URL); a connection you passed stays open. */
  async close(): Promise<void> {
    await this.ctx.workerStats?.closeAll();
    await this.connection.close();
  }
}

import { livenessSettings, type LivenessOptions } from '../liveness/liveness-options.js';
import { MemoryStorage } from 'crawlee';
import type { RedisOptions } from 'ioredis';
import type {
  RequestQueueClient,
  RequestQueueCollectionClient,
  StorageClient,
} from '../core/crawlee-types.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ConnectionHandle, type RedisConnection, type RedisConnectionOption } from '../core/connection.js';
import { assertKeyPrefix } from '../core/keys.js';
import type { QueueContext } from '../queue/queue-context.js';
import { feedSettings, type StartUrlFeedOptions } from '../feed/feed-options.js';

export type { StartUrlFeedLayout, StartUrlFeedOptions, StartUrlItemFormat } from '../feed/feed-options.js';
import { RedisRequestQueueClient } from './redis-request-queue-client.js';
import { RedisRequestQueueCollectionClient } from './request-queue-collection-client.js';
import { randomUUID } from 'node:crypto';
import { RedisDatasetClient } from '../dataset/redis-dataset-client.js';
import { RedisDatasetCollectionClient } from '../dataset/redis-dataset-collection-client.js';
import { workerStatsSettings, type WorkerStatsOptions } from '../stats/worker-stats-options.js';
import { WorkerStatsRegistry } from '../stats/worker-stats-registry.js';
import { integerOption, numberOption } from '../options/option-ranges.js';
import { checkShardedPoliteness } from '../shard/shard-politeness.js';
import { politenessSettings, type PolitenessOptions } from '../politeness/politeness-options.js';
import { durabilitySettings, type DurabilityOptions } from '../options/durability-option.js';
import { handledStoreSettings, type HandledBloomOptions, type HandledRequestsMode } from '../queue/handled-store.js';
import { checkKnownOptions, type KnownOptions } from '../options/known-options.js';

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
   * 0.001 to 3600. @defaultValue 10 */
  connectTimeoutSecs?: number;
  /** Seconds a queue operation is retried while Redis answers with failover errors: on a Redis Cluster, a command
   * in flight on the connection to a master that dies, `CLUSTERDOWN` and `TRYAGAIN` while its replica takes over,
   * `READONLY` from a demoted master, `LOADING` from a restarting node. Every queue operation may run twice
   * (adds dedup by uniqueKey, a handled mark is idempotent, a lock whose reply was lost comes back when it
   * expires). After this long the operation throws `RedisFailoverTimeoutError`. 0 retries nothing. 0 to 3600.
   * @defaultValue 30 */
  failoverTimeoutSecs?: number;
  /** Seconds a connection that was ready may stay lost (Redis stopped or unreachable) before the operations waiting
   * on it reject with {@link RedisUnreachableError} (`afterConnect: true`, naming the address); a connection created
   * from a URL is then closed, so a worker whose Redis is gone for good ends with that error instead of hanging. A
   * restart shorter than this is waited through. With a connection you pass, its own retry policy still applies
   * (`maxRetriesPerRequest`), and operations run again once it is ready. 0.001 to 604,800. @defaultValue 60 */
  reconnectTimeoutSecs?: number;
  /** Wait for replicas after the writes that must survive a master failover: every add (API, feed), handled mark
   * and reclaim is followed by Redis `WAIT replicas timeout` on the master of the queue's slot, and resolves only
   * once `replicas` replicas acknowledged it; else it throws `ReplicasNotAcknowledgedError` (the write stays on
   * the master; retrying is safe). One `WAIT` covers the writes of one event-loop turn. Redis replication is
   * asynchronous: without this, a write the master acknowledged but had not yet sent to its replica is gone after
   * the replica takes over. After a failover the new master has no replica until the failed node returns, so
   * writes throw (after `timeoutSecs`) until then. `true`: `{ replicas: 1, timeoutSecs: 1 }`.
   * @defaultValue undefined (off: no `WAIT`) */
  durability?: boolean | DurabilityOptions;
  /** Prefix of every key; a queue's keys share the hash tag `{<keyPrefix>:rq:<name>}`. @defaultValue `'crawlee'` */
  keyPrefix?: string;
  /** Where key-value stores (and datasets with `datasets: 'local'`) live; they stay per process: Crawlee keeps
   * statistics and session-pool state in the default key-value store. @defaultValue `new MemoryStorage({ persistStorage: false })` */
  localStorageClient?: StorageClient;
  /** Where datasets live when this client is the crawler's storage client (`requestQueue.crawlerConfig`, or a
   * `Configuration` of yours): `'redis'`, one Redis list per dataset (`{<keyPrefix>:ds:<name>}:items`) that every
   * worker's `pushData` appends to, read whole by `getData`/`forEach`/`exportToJSON` and `exportDataset`; or
   * `'local'`, on {@link RedisStorageClientOptions.localStorageClient} (per process: workers sharing a folder with a
   * persisting local client would overwrite each other's items). Key-value stores stay local either way.
   * @defaultValue 'redis' */
  datasets?: 'local' | 'redis';
  /** `prolongRequestLock` extends from the current expiry (`'expiry'`, Crawlee MemoryStorage semantics) or from now.
   * @defaultValue 'expiry' */
  prolongLockFrom?: 'expiry' | 'now';
  /** Requests per add script call (larger adds are split into calls of this size), 1 to 5000. @defaultValue 500 */
  addBatchSize?: number;
  /** Expired locks moved back per `listAndLockHead` (bounds that script's work), 1 to 10,000. @defaultValue 1000 */
  recoverLimit?: number;
  /** Lock expiries a request may cause while being processed before it goes to the dead letters (BullMQ's
   * `maxStalledCount`): a request that kills the worker holding it (OOM, a native crash, SIGKILL) returns each time
   * its lock expires and would take the fleet down one worker at a time. A stall is counted (in Redis, per request)
   * when the lock of a started request expires; "started" means its lock was prolonged, which Crawlee's
   * RequestQueue does as it takes the request from its local buffer, so the rest of a dead worker's buffer returns
   * without a stall. The dead letter's reason carries the count (`RedisQueueAdmin.listDeadLetters()` → `stalls`);
   * requeueing it starts the count again. A worker holds at most one request with a stall counted at a time, so
   * the neighbours started beside a killer are not started beside it again and stall once. 0 to 1000; 0 counts nothing and never dead-letters a stalled request.
   * With a value above 0, `fastProlong`'s local answer is replaced by the (batched) prolong call that marks the
   * start, one script call per started request. @defaultValue 3 */
  maxStalls?: number;
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
  /** Drain a scrapy-redis start-URL feed (a list, set, sorted set, or several keys in priority order) into each
   * queue when it has nothing available: `true` for the list `<name>:start_urls`, or settings (see
   * {@link StartUrlFeedOptions}). @defaultValue undefined (no feed) */
  startUrls?: boolean | StartUrlFeedOptions;
  /** Worker stats each queue client publishes under the queue's hash tag (`{p:rq:name}:worker:<id>` with a TTL,
   * `:workers`, crawl-wide counters in `:stats`), read by `RedisQueueAdmin.workers()` and the `crawlee-redis` CLI.
   * Counters move in memory; one script call per interval writes them, from an unref'd timer started by the first
   * `listAndLockHead`. `false` publishes nothing. @defaultValue `true` (`{ intervalSecs: 15, ttlSecs: 45,
   * deadRetentionSecs: 600 }`) */
  workerStats?: boolean | WorkerStatsOptions;
  /** What a request that failed for good becomes (one Crawlee marks handled from its error handler after its last
   * retry). Either way it is recorded in the queue's failed index (`RedisQueueAdmin.failed()`, `requeueFailed()`,
   * `crawlee-redis failed`), atomically with the handled mark. `'keep'`: it stays handled, so adding its uniqueKey
   * again is refused (Crawlee's and scrapy-redis' behaviour). `'forget'`: it leaves the queue (total and pending
   * drop, handled does not move), so a later run that adds it again fetches it; combine with crawlee-bloom-dedup's
   * `withDedup({ forgetFailed: true })` for a set store in front of the queue. Every client of one queue should use
   * the same value. @defaultValue 'keep' */
  failedRequests?: 'keep' | 'forget';
  /** Worker liveness (docs/liveness.md): each queue client that holds locks keeps a heartbeat in Redis (Redis time,
   * one small script every `heartbeatSecs` from an unref'd timer). A live worker keeps its locks however long its
   * handler runs (the lock time no longer ends them); a worker whose heartbeat stops for `windowSecs` (killed, or its
   * event loop blocked that long) loses them, and they return in the next `listAndLockHead` of any worker, however
   * long their lock time. `false`: no heartbeat, locks last their lock time (Crawlee MemoryStorage semantics).
   * @defaultValue `true` (`{ heartbeatSecs: 1, windowSecs: 5 }`) */
  liveness?: boolean | LivenessOptions;
  /** On a polite queue whose hosts with available requests all wait: how long one `listAndLockHead` may wait for
   * the first of them to open (the lock script says when), instead of answering empty and leaving the next try to
   * Crawlee's next poll (every 0.5 s). 0 to 60 s; 0 answers at once. @defaultValue 2 */
  maxHostWaitSecs?: number;
  /** A client whose `listAndLockHead` found nothing three times in a row while other workers hold locks answers its
   * next calls itself, with that same empty answer, for a step that doubles from 0.1 s to 1 s (50 ms per shard on a
   * sharded queue), so an idle worker sends a few commands per second; an add, update or released lock of this
   * client ends it at once, work added by other workers is seen within the step. @defaultValue true */
  idleBackoff?: boolean;
  /** Fleet-wide politeness enforced by the queue's Lua for every worker (`docs/politeness.md`): a request of host H
   * is handed out only when H's next allowed time (Redis time) has come and fewer than `maxConcurrencyPerHost`
   * requests of H are locked; retried requests wait for a not-before time (`retryBackoff`). Fixed when the queue is
   * created: opening it with other settings throws {@link PolitenessMismatchError}. Absent: today's behaviour at
   * today's cost. @defaultValue undefined (no politeness) */
  politeness?: PolitenessOptions;
  /** Sub-queues per queue, for one crawl over every master of a Redis Cluster: with S > 1 a queue is S complete
   * sub-queues (shards), each under its own hash tag `{<keyPrefix>:rq:<name>#<shard>.<salt>}` placed on its own 1/S
   * of the cluster's slots, and the count is recorded in the root metadata `{<keyPrefix>:rq:<name>}:meta`. Every step
   * stays one script in one shard (dedup by uniqueKey, lock, handle, reclaim, dead letters); `listAndLockHead` takes
   * from the other shards when this client's current shard is empty; `queueHasLockedRequests` and the counters cover
   * every shard. FIFO (and forefront-first) holds within a shard; across shards the order is the rotation of each
   * client over the shards, not global. Every client of one queue must use the same count: another count is refused
   * with {@link ShardLayoutMismatchError} (also for a queue created before counts were recorded, which has 1).
   * A start-URL feed (`startUrls`) puts each item into the shard of its uniqueKey, through a claim in the feed
   * key's slot that a killed worker's successor replays. 1 to 256. @defaultValue 1 (one hash tag: today's keys, unchanged) */
  shards?: number;
  /** What a request's shard is a function of, with `shards` > 1: `'host'`, the host of a uniqueKey that is an
   * absolute http(s) URL (one host's requests stay in one shard; any other uniqueKey, e.g. a Scrapy fingerprint, is
   * hashed whole), or `'uniqueKey'`, the whole uniqueKey (even spread when a few hosts dominate). Two requests with
   * one uniqueKey always land in the same shard. Every client of one queue must use the same rule.
   * @defaultValue 'host' */
  shardBy?: 'host' | 'uniqueKey';
  /** What the queue keeps of a handled request, fixed when a queue is created (recorded in its meta; opening it
   * later with another mode or `handledBloom` throws `HandledModeMismatchError`, nothing changed). Handled
   * requests always leave the pending structures; dedup, `wasAlreadyHandled` and the counters behave the same in
   * every mode. `'request'`: the full request with `handledAt`, which `getRequest(id)` returns (about 190-480 B per
   * handled request). `'key'`: only the id, in listpack buckets under linear hashing (about 23 B), exact dedup;
   * `getRequest` of a handled id returns undefined. `'bits'`: a Bloom filter in the queue's hash tag (about 3.6 B
   * per expected request at 1e-6, allocated at creation), sized by `handledBloom`; `getRequest` of a handled id
   * returns undefined, a never-added request is reported already handled (and skipped) at the false-positive rate,
   * and a handled request cannot be forgotten (`RedisQueueAdmin.forget`, `deleteRequest`: the bits are shared).
   * `'store'`: nothing; the dedup store attached with crawlee-bloom-dedup's `withDedup` (a Redis store on this
   * Redis) is the record of handled requests, one seen-set per crawl (a Bloom store: nothing per handled request
   * beyond its bits); every add must run through it (else `DedupStoreRequiredError`, nothing written), a takeover
   * is refused, and a handled request cannot be forgotten through the queue.
   * In 'key', 'bits' and 'store' a request that failed for good keeps its JSON in the failed index's data, for
   * `failed()` / `requeueFailed()`. @defaultValue 'key' */
  handledRequests?: HandledRequestsMode;
  /** Sizing of the `'bits'` filter (only with `handledRequests: 'bits'`; see {@link HandledBloomOptions}).
   * @defaultValue `{ expectedRequests: 1_000_000, falsePositiveRate: 1e-6 }` (3.4 MiB) */
  handledBloom?: HandledBloomOptions;
  /** Tests only: milliseconds added to Redis `TIME` in every script, read before each operation (lets a test move a
   * queue's clock forward; it is still Redis time, never the worker's). @defaultValue 0 */
  clockOffsetMs?: number | (() => number);
}

/** Every option of {@link RedisStorageClientOptions} (a typo is refused, never dropped). */
export const STORAGE_CLIENT_OPTIONS: KnownOptions<RedisStorageClientOptions> = {
  redis: true, redisOptions: true, connectTimeoutSecs: true, failoverTimeoutSecs: true, reconnectTimeoutSecs: true,
  durability: true, keyPrefix: true, localStorageClient: true, datasets: true, prolongLockFrom: true, addBatchSize: true,
  recoverLimit: true, maxStalls: true, cacheLockedRequests: true, fastProlong: true, startUrls: true, workerStats: true,
  failedRequests: true, liveness: true, maxHostWaitSecs: true, idleBackoff: true, politeness: true, shards: true, shardBy: true, handledRequests: true, handledBloom: true,
  clockOffsetMs: true,
};

/**
 * A Crawlee `StorageClient` whose request queues and datasets live in Redis, shared by every process that opens the
 * same name; key-value stores stay on a per-process client. `purge()` (Crawlee's `purgeOnStart`) never touches
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
  /** Where key-value stores (and datasets with `datasets: 'local'`) live. */
  readonly localStorageClient: StorageClient;
  private readonly connection: ConnectionHandle;
  private readonly ctx: QueueContext;
  private readonly redisDatasets: boolean;

  /**
   * @param options - see {@link RedisStorageClientOptions}
   * @throws {@link InvalidOptionsError} for a bad URL, key prefix, numeric option, `workerStats` or `politeness` setting
   */
  constructor(options: RedisStorageClientOptions = {}) {
    checkKnownOptions<RedisStorageClientOptions>('RedisStorageClient options', options, STORAGE_CLIENT_OPTIONS);
    const keyPrefix = options.keyPrefix ?? 'crawlee';
    assertKeyPrefix('keyPrefix', keyPrefix);
    const prolongLockFrom = options.prolongLockFrom ?? 'expiry';
    if (prolongLockFrom !== 'expiry' && prolongLockFrom !== 'now') {
      throw new InvalidOptionsError(`prolongLockFrom must be 'expiry' or 'now' (got ${JSON.stringify(prolongLockFrom)})`);
    }
    const datasets = options.datasets ?? 'redis';
    if (datasets !== 'local' && datasets !== 'redis') {
      throw new InvalidOptionsError(`datasets must be 'local' or 'redis' (got ${JSON.stringify(datasets)})`);
    }
    this.redisDatasets = datasets === 'redis';
    const failedRequests = options.failedRequests ?? 'keep';
    if (failedRequests !== 'keep' && failedRequests !== 'forget') {
      throw new InvalidOptionsError(`failedRequests must be 'keep' or 'forget' (got ${JSON.stringify(failedRequests)})`);
    }
    const clock = typeof options.clockOffsetMs === 'function' ? options.clockOffsetMs : numberOption('clockOffsetMs', options.clockOffsetMs);
    const addBatchSize = integerOption('addBatchSize', options.addBatchSize);
    const recoverLimit = integerOption('recoverLimit', options.recoverLimit);
    const maxStalls = integerOption('maxStalls', options.maxStalls);
    const handledStore = handledStoreSettings(options.handledRequests, options.handledBloom);
    numberOption('connectTimeoutSecs', options.connectTimeoutSecs);
    const failoverTimeoutSecs = numberOption('failoverTimeoutSecs', options.failoverTimeoutSecs);
    const reconnectTimeoutSecs = numberOption('reconnectTimeoutSecs', options.reconnectTimeoutSecs);
    const durability = durabilitySettings(options.durability);
    const feed = feedSettings(options.startUrls);
    const politeness = politenessSettings(options.politeness);
    const shards = integerOption('shards', options.shards);
    const shardBy = options.shardBy ?? 'host';
    if (shardBy !== 'host' && shardBy !== 'uniqueKey') {
      throw new InvalidOptionsError(`shardBy must be 'host' or 'uniqueKey' (got ${JSON.stringify(shardBy)})`);
    }
    if (politeness) checkShardedPoliteness(shards, shardBy, options.politeness?.hostKey !== undefined);
    const stats = workerStatsSettings(options.workerStats);
    const liveness = livenessSettings(options.liveness);
    this.connection = new ConnectionHandle(options.redis, options.redisOptions, options.connectTimeoutSecs, failoverTimeoutSecs, reconnectTimeoutSecs, keyPrefix);
    this.redis = this.connection.redis;
    this.keyPrefix = keyPrefix;
    this.localStorageClient = options.localStorageClient ?? new MemoryStorage({ persistStorage: false, writeMetadata: false });
    this.ctx = {
      connection: this.connection,
      keyPrefix,
      clockOffsetMs: typeof clock === 'function' ? clock : () => clock,
      prolongLockFrom,
      addBatchSize,
      recoverLimit,
      maxStalls,
      cacheLockedRequests: options.cacheLockedRequests ?? true,
      fastProlong: options.fastProlong ?? false,
      startUrls: feed,
      workerStats: stats && new WorkerStatsRegistry(stats),
      failedRequests,
      shards,
      shardBy,
      handledStore,
      producerLeases: new Set(),
      heartbeats: new Set(),
      maxHostWaitMs: Math.round(numberOption('maxHostWaitSecs', options.maxHostWaitSecs) * 1000),
      idleBackoff: options.idleBackoff ?? true,
      ...(liveness ? { liveness } : {}),
      politeness,
      ...(durability ? { durability } : {}),
    };
  }

  /** The datasets: in Redis (default), or those of the local storage client with `datasets: 'local'`. */
  datasets(): ReturnType<StorageClient['datasets']> {
    if (this.redisDatasets) return new RedisDatasetCollectionClient(this.ctx);
    return this.localStorageClient.datasets();
  }

  /** A dataset: in Redis (default), or of the local storage client with `datasets: 'local'`. @param id - dataset id */
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

  /** Called by Crawlee at the end of `crawler.run()` when this is the crawler's storage client: publishes the worker
   * stats counted since the last interval (so the crawl's totals add up even if the process then quits its
   * connection) and tears the local client down; the Redis connection stays usable (a crawler may run again). Use
   * `requestQueue.close()` (or {@link RedisStorageClient.close}) when done. */
  async teardown(): Promise<void> {
    await this.ctx.workerStats?.flushAll();
    await this.localStorageClient.teardown?.();
  }

  /** Releases the producer leases its queues took (`holdOpen`), publishes the last worker stats of its queue clients
   * (state `stopped`), then closes the Redis connection if this client created it (from a URL); a connection you
   * passed stays open. */
  async close(): Promise<void> {
    await Promise.all([...this.ctx.producerLeases].map((lease) => lease.release().catch(() => undefined)));
    await this.ctx.workerStats?.closeAll();
    for (const heartbeat of this.ctx.heartbeats) heartbeat.stop();
    this.ctx.heartbeats.clear();
    await this.connection.close();
  }
}

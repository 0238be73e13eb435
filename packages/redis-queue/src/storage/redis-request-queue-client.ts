import type {
  BatchAddRequestsResult,
  DeleteRequestLockOptions,
  ListAndLockHeadResult,
  ListAndLockOptions,
  ListOptions,
  ProlongRequestLockOptions,
  ProlongRequestLockResult,
  QueueHead,
  QueueOperationInfo,
  RequestOptions,
  RequestQueueClient,
  RequestQueueInfo,
  RedisRequestQueueInfo,
  RequestSchema,
  UpdateRequestSchema,
} from '../core/crawlee-types.js';
import {
  ENQUEUE_FILTER_SINK,
  UNIQUE_KEY_SINK,
  type AttachEnqueueFilterOptions,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
  type UniqueKeySink,
  type UniqueKeyTransform,
} from '@crawlee-distributed/redis-kit/seam';
import { QueueEpoch } from '../queue/queue-epoch.js';
import { idleProbe } from '../queue/idle-probe.js';
import { UnsupportedOperationError } from '../errors/unsupported-operation-error.js';
import type { QueueContext } from '../queue/queue-context.js';
import { QueueCore } from '../queue/queue-core.js';
import type { QueueCoreApi } from '../queue/queue-core-api.js';
import { claimShardLayout } from '../shard/shard-layout.js';
import { assertNotShardName } from '../shard/shard-keys.js';
import { ShardedQueueCore } from '../shard/sharded-queue-core.js';
import { LockDispatch } from './lock-dispatch.js';
import { openProducerLease, type ProducerLease, type ProducerLeaseOptions } from '../lease/producer-lease.js';
import type { RedisConnection } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';

/**
 * Crawlee 3 `RequestQueueClient` of one Redis request queue, for one client (`clientKey`): a thin adapter over the
 * queue core (`src/queue/queue-core.ts`). Every state change is one Lua script (see `src/lua/`), with Redis `TIME` as
 * the clock and the `clientKey` as lock owner. Crawlee's own `RequestQueue` (RequestQueueV2) drives it; get one with
 * `openRedisRequestQueue` (as `queue.client`) or `RedisStorageClient`.
 */
export class RedisRequestQueueClient implements RequestQueueClient, EnqueueFilterSink, UniqueKeySink {
  private readonly core: QueueCoreApi;
  private readonly ctx: QueueContext;
  /** How this client's lock calls reach Redis and what ends their waits (see {@link LockDispatch}). */
  private readonly dispatch: LockDispatch;
  /** The queue this client started on, checked before Crawlee may finish (see {@link QueueEpoch}). */
  private readonly epoch: QueueEpoch;
  /** The producer leases this client took (`holdOpen`) and has not released yet. */
  private readonly leases = new Set<ProducerLease>();

  /**
   * @param ctx - connection and settings shared by the storage client
   * @param id - the queue id (for a named queue, its name)
   * @param clientKey - lock owner; Crawlee passes a random one per RequestQueue instance
   * @internal Created by {@link RedisStorageClient.requestQueue}.
   */
  constructor(ctx: QueueContext, id: string, clientKey: string) {
    this.ctx = ctx;
    const core = ctx.shards > 1 ? new ShardedQueueCore(ctx, id, clientKey) : new QueueCore(ctx, id, clientKey);
    this.core = core;
    this.epoch = new QueueEpoch(() => this.redis, (core instanceof ShardedQueueCore ? core.cores[0]! : core).keys.meta, id);
    // A polite queue's lock call says when its next host opens, and a feed's lock call drains the feed: no probe there.
    const probe = ctx.politeness || ctx.startUrls ? undefined : idleProbe(ctx.connection, core instanceof ShardedQueueCore ? core.cores : [core], ctx.clockOffsetMs);
    this.dispatch = new LockDispatch(core, ctx.maxHostWaitMs, ctx.shards, ctx.idleBackoff, probe);
  }

  /** Queue id (for a named queue: its name). */
  get id(): string {
    return this.core.id;
  }

  /** Lock owner of this client. */
  get clientKey(): string {
    return this.core.clientKey;
  }

  /** The Redis keys of this queue. */
  get keys(): QueueKeys {
    return this.core.keys;
  }

  /** The connection of this queue (e.g. for a dedup store on the same Redis). */
  get redis(): RedisConnection {
    return this.core.scripts.connection.redis;
  }

  /** This client is the sink side of the enqueue-filter seam (docs/enqueue-filter-seam.md). */
  get [ENQUEUE_FILTER_SINK](): EnqueueFilterSink {
    return this;
  }

  /** This client is a sink of the uniqueKey seam: its start-URL feed applies the registered transform. */
  get [UNIQUE_KEY_SINK](): UniqueKeySink {
    return this;
  }

  /** Creates the queue's metadata if missing (idempotent across workers) and registers it in the queue index; records
   * the shard count of a new queue and checks that of an existing one.
   * @param name - the queue name, or undefined for an unnamed queue
   * @throws {@link ShardLayoutMismatchError} when the queue was created with another `shards` count or `shardBy` rule (nothing written)
   * @internal */
  async ensureCreated(name: string | undefined): Promise<void> {
    // Before any shard is written: another shard count for an existing queue is refused (ShardLayoutMismatchError).
    assertNotShardName(this.id);
    await claimShardLayout(this.ctx.connection, this.ctx.keyPrefix, this.id, { shards: this.ctx.shards, shardBy: this.ctx.shardBy });
    await this.core.ensureCreated(name);
  }

  /** @returns the queue info with counters read from Redis and `memoryBytes` (the queue's Redis memory, measured at
   * most 10 s ago), or undefined when the queue does not exist */
  async get(): Promise<RedisRequestQueueInfo | undefined> {
    return this.core.info();
  }

  /**
   * Renaming a shared queue is not supported (every worker addresses it by name); a call without a new name
   * returns the queue info.
   * @param newFields - `{ name }`
   * @throws {@link UnsupportedOperationError} for a new name
   */
  async update(newFields: { name?: string }): Promise<Partial<RequestQueueInfo> | undefined> {
    const info = await this.core.info();
    if (newFields.name !== undefined && newFields.name !== info?.name) {
      throw new UnsupportedOperationError(`request queue "${this.id}" cannot be renamed; open a queue with the new name and add the requests there`);
    }
    return info;
  }

  /** Deletes the queue and all its requests and dead letters (Crawlee's `queue.drop()`). Explicit only:
   * `purgeOnStart` never calls this. */
  async delete(): Promise<void> {
    await this.core.drop();
  }

  /** Lists the first `limit` unhandled requests in queue order, locked ones included (at most `limit` of those, the
   * soonest-expiring). Crawlee's RequestQueueV1 (`requestLocking: false`) reads the queue only through this, a
   * single consumer (it takes requests without locks); RequestQueueV2 only on its legacy `isFinished` path.
   * @param options - `limit` (default 100) */
  async listHead(options: ListOptions = {}): Promise<QueueHead> {
    return this.core.listHead(options.limit ?? 100);
  }

  /**
   * Adds one request, deduplicated by uniqueKey (and through the attached enqueue filter).
   * @param request - the request
   * @param options - `forefront`
   * @returns `{ requestId, wasAlreadyPresent, wasAlreadyHandled }`
   * @throws {@link InvalidRequestError} for a request that cannot be stored (nothing is written)
   */
  async addRequest(request: RequestSchema, options: RequestOptions = {}): Promise<QueueOperationInfo> {
    const [processed] = await this.dispatch.change(undefined, () => this.core.add([request], options.forefront ?? false));
    const { requestId, wasAlreadyPresent, wasAlreadyHandled } = processed!;
    return { requestId, wasAlreadyPresent, wasAlreadyHandled };
  }

  /**
   * Adds requests atomically per chunk of `addBatchSize`, deduplicated by uniqueKey (and through the attached
   * enqueue filter). A request without a uniqueKey gets one from the registered uniqueKey transform.
   * @param requests - the requests
   * @param options - `forefront`
   * @returns one processed entry per request, in order; `unprocessedRequests` is always empty
   * @throws {@link InvalidRequestError} when any request cannot be stored (checked before anything is written)
   */
  async batchAddRequests(requests: RequestSchema[], options: RequestOptions = {}): Promise<BatchAddRequestsResult> {
    const processedRequests = await this.dispatch.change(undefined, () => this.core.add(requests, options.forefront ?? false));
    return { processedRequests, unprocessedRequests: [] };
  }

  /** Reads one request; an entry that cannot be read is moved to the dead letters and reads as undefined.
   * @param id - the request id */
  async getRequest(id: string): Promise<RequestOptions | undefined> {
    this.dispatch.started(id);
    return this.core.getRequest(id);
  }

  /**
   * Stores a request's new state. With `handledAt`: marks it handled, removes its lock, moves the counters (atomic,
   * idempotent). Without: a reclaim, it becomes available again (original order, or the head with `forefront`).
   * Never throws for a lost lock.
   * @param request - the request with its id
   * @param options - `forefront`
   * @returns the state before the update
   * @throws {@link InvalidRequestError} when the id does not match the uniqueKey or the request is not storable
   */
  async updateRequest(request: UpdateRequestSchema, options: RequestOptions = {}): Promise<QueueOperationInfo> {
    // A reclaim makes a request available; a handled one frees its host's slot on a polite queue.
    return this.dispatch.change(request.id, () => this.core.update(request, options.forefront ?? false));
  }

  /** Deletes one request and moves the counters. @param id - the request id */
  async deleteRequest(id: string): Promise<unknown> {
    this.dispatch.started(id);
    return this.core.deleteRequest(id);
  }

  /**
   * Atomically locks up to `limit` available requests for this client, after moving expired locks back to their
   * original place. When nothing is available and a start-URL feed is configured, drains one feed batch first. On
   * a polite queue whose hosts with available requests all wait, it waits until the first one opens (at most 2 s in
   * all) and locks then.
   * @param options - `limit` (default 25, at most 1000) and `lockSecs`
   * @throws {@link InvalidOptionsError} for a bad limit or lock time
   * @throws {@link QueueMissingError} when the queue's metadata is gone (dropped, or Redis lost its data) or the queue
   *   was created again since this client first locked from it (checked when the queue looks finished)
   */
  async listAndLockHead(options: ListAndLockOptions): Promise<ListAndLockHeadResult> {
    // A polite queue whose hosts all wait says when the first opens: wait for it (bounded), not for the next blind poll.
    const limit = options.limit ?? 25;
    const result = await this.dispatch.lock(limit, options.lockSecs);
    // A queue that looks finished must still be the one this client started on (not one re-created since).
    await this.epoch.remember();
    if (limit > 0 && result.items.length === 0 && !result.queueHasLockedRequests) await this.epoch.check();
    return result;
  }

  /**
   * Prolongs this client's lock. By default the new expiry counts from the current expiry (Crawlee MemoryStorage
   * semantics; option `prolongLockFrom: 'now'` counts from now).
   * @param id - the request id
   * @param options - `lockSecs`, `forefront` (the request goes to the head once released)
   * @returns the new expiry (Redis time)
   * @throws {@link LockLostError} when the lock expired and was recovered or another client holds it
   * @throws {@link RequestAlreadyHandledError} for a handled request
   * @throws {@link RequestNotFoundError} for an unknown id
   */
  async prolongRequestLock(id: string, options: ProlongRequestLockOptions): Promise<ProlongRequestLockResult> {
    this.dispatch.started(id);
    return { lockExpiresAt: new Date(await this.core.locks.prolong(id, options?.lockSecs, options?.forefront ?? false)) };
  }

  /**
   * Sets this client's lock to expire `lockSecs` from now (Redis time), whatever the prolong mode: the call for a
   * heartbeat of a handler that runs longer than the lock.
   * @param id - the request id
   * @param options - `lockSecs`
   * @returns the new expiry (Redis time)
   * @throws {@link LockLostError}, {@link RequestAlreadyHandledError}, {@link RequestNotFoundError}
   */
  async refreshRequestLock(id: string, options: { lockSecs: number }): Promise<ProlongRequestLockResult> {
    return { lockExpiresAt: new Date(await this.core.locks.refresh(id, options?.lockSecs)) };
  }

  /**
   * Releases this client's lock; the request becomes available at its original place (or the head with
   * `forefront`). Idempotent.
   * @param id - the request id
   * @param options - `forefront`
   */
  async deleteRequestLock(id: string, options: DeleteRequestLockOptions = {}): Promise<void> {
    await this.dispatch.change(id, () => this.core.locks.release(id, options.forefront ?? false));
  }

  /**
   * Releases every lock this client still holds (including requests Crawlee buffered locally), each back at its
   * original place. Call it when a worker shuts down (SIGTERM), so others take the requests at once instead of after
   * the lock time. Locks lost to other clients are left alone.
   * @returns the number of locks released
   */
  async releaseLocks(): Promise<number> {
    this.dispatch.releasedAll();
    return this.core.locks.releaseAll();
  }

  /**
   * Pushes the host's next allowed time for the whole fleet to at least now + delaySecs (Redis time): every worker's
   * `listAndLockHead` skips the host until then, other hosts are not affected. Call it on a 429 or 503 with
   * `Retry-After`, or after a run of errors from one host. Only pushes later, never earlier.
   * @param host - a host key, `hostKeyOf(url)`
   * @param delaySecs - seconds, 0 to 604,800
   * @throws {@link InvalidOptionsError} for an empty host or a delay out of range
   * @throws {@link PolitenessMismatchError} when the queue was created without politeness
   */
  async backOffHost(host: string, delaySecs: number): Promise<void> {
    await this.core.backOffHost(host, delaySecs);
  }

  /**
   * Host key of a URL with this queue's hostKey (default: the hostname, lower-cased, with the port when it is not
   * the scheme's default).
   * @param url - an absolute URL
   * @throws {@link InvalidRequestError} when the hostKey function fails or returns no usable key
   */
  hostKeyOf(url: string): string {
    return this.core.hostKeyOf(url);
  }

  /**
   * Politeness state, on Redis time, in one atomic read: hosts with available requests, hosts waiting (next allowed
   * time in the future or at max concurrency), the longest current wait in seconds, in-flight per host (top N).
   * @param options - `top`: hosts listed in `inFlight` (1..1000, default 20)
   */
  politenessStats(options: { top?: number } = {}): Promise<PolitenessStats> {
    return this.core.politenessStats(options.top);
  }

  /**
   * Takes a producer lease on this queue: while it is alive no worker finishes (see
   * `RedisQueueAdmin.openProducerLease`). Hold one while adding without holding a request lock (seeding, a sitemap
   * reader); release it when done (the storage client's `close()` releases the ones still open). It expires
   * `leaseSecs` after its last renewal if this process dies.
   * @param options - `leaseSecs` (1..3600, default 30), `renewEverySecs` (default leaseSecs / 3), `id`
   * @returns the lease
   * @throws {@link InvalidOptionsError} for a lease time or renewal interval out of range (nothing written)
   */
  async holdOpen(options: ProducerLeaseOptions = {}): Promise<ProducerLease> {
    const leases = this.core.producerLeases;
    const lease = await openProducerLease(this.core.scripts, options, (l) => {
      leases.delete(l);
      this.leases.delete(l);
    });
    leases.add(lease);
    this.leases.add(lease);
    return lease;
  }

  /**
   * Ends this client's work on the queue, for a worker that is done (after `crawler.run()`) or stopping: releases
   * every lock it still holds (each request back at its original place), releases the producer leases it took
   * (`holdOpen`), and publishes its last worker stats with state `stopped` (the final counters, so
   * `crawlee-redis workers` shows it finished). The connection stays open: it belongs to the storage client
   * (`RedisRequestQueue.close()` closes one that `openRedisRequestQueue` created). Safe to call twice (the second
   * call finds nothing left to release). A failed stats publish is logged at debug level, never thrown.
   * @returns the number of locks released
   * @throws {@link RedisUnreachableError} when Redis cannot be reached to release the locks
   */
  async close(): Promise<number> {
    await Promise.all([...this.leases].map((lease) => lease.release().catch(() => undefined)));
    const released = await this.core.locks.releaseAll();
    await this.core.workerStats.close();
    return released;
  }

  /**
   * True when `source`'s plans can run inside this queue's add script: same Redis (same connection object, or same
   * host, port and db), and on a Cluster every key of the source on this queue's slot.
   * @param source - a dedup store offering the seam
   */
  canAttachEnqueueFilter(source: EnqueueFilterSource): boolean {
    return this.core.filter.canAttach(source);
  }

  /**
   * Runs `source`'s check-and-set inside every add of this client from now on (API adds and start-URL feed items).
   * @param source - a dedup store offering the seam
   * @param options - `keyOf` (default: uniqueKey), `onFiltered`
   * @throws {@link EnqueueFilterIncompatibleError} when {@link RedisRequestQueueClient.canAttachEnqueueFilter} is false
   */
  attachEnqueueFilter(source: EnqueueFilterSource, options: AttachEnqueueFilterOptions = {}): void {
    this.core.filter.attach(source, options);
  }

  /** Stops running the enqueue filter in the add script. */
  detachEnqueueFilter(): void {
    this.core.filter.detach();
  }

  /**
   * Registers the uniqueKey transform (the uniqueKey seam, e.g. `withScrapyFingerprint`): start-URL feed items and
   * requests added without a uniqueKey get their uniqueKey from it.
   * @param transform - the transform, or undefined to remove it
   */
  setUniqueKeyTransform(transform: UniqueKeyTransform | undefined): void {
    this.core.addPath.uniqueKeyTransform = transform;
  }

  /**
   * Counts requests offered through `RedisRequestQueue` that it did not take as new (Crawlee's request cache, the
   * queue or the dedup store answered), for the crawl's duplicates filtered (`RedisQueueAdmin.crawlStats()`).
   * @param n - count
   */
  recordDuplicates(n: number): void {
    this.core.workerStats.duplicates(n);
  }

  /** The registered uniqueKey transform, if any (applied by `RedisRequestQueue` to its own adds). */
  get uniqueKeyTransform(): UniqueKeyTransform | undefined {
    return this.core.addPath.uniqueKeyTransform;
  }
}

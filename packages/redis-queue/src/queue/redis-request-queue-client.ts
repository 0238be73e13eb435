import { log } from 'crawlee';
import type {
  BatchAddRequestsResult,
  DeleteRequestLockOptions,
  ListAndLockHeadResult,
  ListAndLockOptions,
  ListOptions,
  ProcessedRequest,
  ProlongRequestLockOptions,
  ProlongRequestLockResult,
  QueueHead,
  QueueOperationInfo,
  RequestOptions,
  RequestQueueClient,
  RequestQueueHeadItem,
  RequestQueueInfo,
  RequestSchema,
  UpdateRequestSchema,
} from '../crawlee-types.js';
import {
  ENQUEUE_FILTER_SINK,
  type AttachEnqueueFilterOptions,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
} from '../enqueue-filter.js';
import { EnqueueFilterIncompatibleError } from '../errors/enqueue-filter-incompatible-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { mapScriptError } from '../errors/map-script-error.js';
import { RedisQueueError } from '../errors/redis-queue-error.js';
import { UnsupportedOperationError } from '../errors/unsupported-operation-error.js';
import { canAttachEnqueueFilter } from '../filter/can-attach.js';
import { validateEnqueueFilterPlan } from '../filter/validate-plan.js';
import { drainStartUrls } from '../feed/drain-start-urls.js';
import { queueIndexKey, queueKeys, type QueueKeys } from '../redis/keys.js';
import { runScript, runScriptBuffer, type ScriptArg, type ScriptName } from '../redis/scripts.js';
import { decodeRequest, encodeRequest, toHeadItem, type DecodedRequest, type EncodedRequest } from './request-codec.js';
import type { QueueContext } from './queue-context.js';
import { lockMsOf } from './lock-secs.js';
import { ScriptBatcher } from './script-batcher.js';
import { NO_WORKER_STATS, type DedupCounterLocation, type WorkerStatsRecorder } from '../stats/worker-stats-recorder.js';

/** Codes of add-requests.lua (1 = already present). */
const ADDED = 0;
const PRESENT_HANDLED = 2;
const FILTERED = 3;

const MAX_LOCK_LIMIT = 1000;
const CACHE_LIMIT = 2000;
/** Items per batched prolong or update script call. */
const MAX_BATCH = 200;

type StoredRequest = Extract<DecodedRequest, { ok: true }>['request'];

interface ProlongItem {
  id: string;
  lockMs: number;
  forefront: boolean;
  mode: 'expiry' | 'now';
  /** Lock time already added at lock time in anticipation of this prolong (ms). */
  appliedMs: number;
}

/** A lock taken by this client's last listAndLockHead calls (for the `fastProlong` option). */
interface FreshLock {
  /** Local monotonic time of the lock (`performance.now()`). */
  lockedAt: number;
  /** The lock time Crawlee asked for, in ms. */
  lockMs: number;
  /** The lock's expiry in Redis, in ms (Redis time). */
  expiresAt: number;
  /** Lock time added at lock time for the prolong Crawlee makes next (ms; 0 when none was added). */
  appliedMs: number;
}

interface UpdateItem {
  encoded: EncodedRequest;
  forefront: boolean;
}

interface AttachedFilter {
  source: EnqueueFilterSource;
  keyOf: NonNullable<AttachEnqueueFilterOptions['keyOf']>;
  onFiltered?: (count: number) => void;
}

/**
 * Crawlee `RequestQueueClient` of one Redis request queue, for one client (`clientKey`). Every state change is one
 * Lua script (see `src/lua/`), with Redis `TIME` as the clock and the `clientKey` as lock owner. Crawlee's own
 * `RequestQueue` (RequestQueueV2) drives it; get one with `openRedisRequestQueue` or `RedisStorageClient`.
 */
export class RedisRequestQueueClient implements RequestQueueClient, EnqueueFilterSink {
  /** Queue id (for a named queue: its name). */
  readonly id: string;
  /** Lock owner of this client. */
  readonly clientKey: string;
  /** The Redis keys of this queue. */
  readonly keys: QueueKeys;
  private readonly ctx: QueueContext;
  private filter?: AttachedFilter;
  /** Requests `listAndLockHead` returned, decoded once, for the `getRequest` that follows. */
  private readonly lockedRequests = new Map<string, StoredRequest>();
  /** Ids this client locked and has not handled, reclaimed or released yet (for {@link RedisRequestQueueClient.releaseLocks}),
   * with their uniqueKeys (an update of one of them needs no id check by hashing). */
  private readonly heldLocks = new Map<string, string>();
  /** Locks taken by the last listAndLockHead calls: local monotonic time, lock length, Redis-time expiry (for the
   * `fastProlong` option). */
  private readonly freshLocks = new Map<string, FreshLock>();
  /** worker-stats hook (src/stats/): counters in memory, published by a background timer. */
  private readonly workerStats: WorkerStatsRecorder;

  /**
   * @param ctx - connection and settings shared by the storage client
   * @param id - the queue id (for a named queue, its name)
   * @param clientKey - lock owner; Crawlee passes a random one per RequestQueue instance
   */
  constructor(ctx: QueueContext, id: string, clientKey: string) {
    this.ctx = ctx;
    this.id = id;
    this.clientKey = clientKey;
    this.keys = queueKeys(ctx.keyPrefix, id);
    this.prolongs = new ScriptBatcher((items) => this.prolongBatch(items), MAX_BATCH, (item) => item.id);
    this.updates = new ScriptBatcher((items) => this.updateBatch(items), MAX_BATCH, (item) => item.encoded.id);
    // worker-stats hook
    this.workerStats =
      ctx.workerStats?.create({ connection: ctx.connection, keys: this.keys, clientKey, lockCount: () => this.heldLocks.size, clockOffsetMs: ctx.clockOffsetMs }) ??
      NO_WORKER_STATS;
  }

  private readonly prolongs: ScriptBatcher<ProlongItem, number>;
  private readonly updates: ScriptBatcher<UpdateItem, QueueOperationInfo>;

  /** This client is the sink side of the enqueue-filter seam (docs/enqueue-filter-seam.md). */
  get [ENQUEUE_FILTER_SINK](): EnqueueFilterSink {
    return this;
  }

  private offset(): string {
    return String(Math.trunc(this.ctx.clockOffsetMs()));
  }

  /** Sends the waiting prolong and update batches, so that the command sent next reaches Redis after them (call
   * order across kinds of calls). */
  private flushBatches(): void {
    this.prolongs.flushNow();
    this.updates.flushNow();
  }

  private async script(name: ScriptName, args: ScriptArg[], extraKeys: readonly string[] = [], buffers = false): Promise<unknown> {
    if (name !== 'prolongRequestLock' && name !== 'updateRequest') this.flushBatches();
    const keys = extraKeys.length ? [...this.keys.all, ...extraKeys] : this.keys.all;
    const run = buffers ? runScriptBuffer : runScript;
    try {
      return await this.ctx.connection.run(() => run(this.ctx.connection.redis, name, keys, args));
    } catch (error) {
      throw mapScriptError(error, `request queue "${this.id}" ${name}`);
    }
  }

  /** Creates the queue's metadata if missing (idempotent across workers) and registers it in the queue index.
   * @param name - the queue name, or undefined for an unnamed queue */
  async ensureCreated(name: string | undefined): Promise<void> {
    await this.script('createQueue', [this.id, name ?? '', this.offset()]);
    await this.ctx.connection.run(() => this.ctx.connection.redis.sadd(queueIndexKey(this.ctx.keyPrefix), this.id));
  }

  /** @returns the queue info with counters read from Redis, or undefined when the queue does not exist */
  async get(): Promise<RequestQueueInfo | undefined> {
    this.flushBatches();
    const meta = await this.ctx.connection.run(() => this.ctx.connection.redis.hgetall(this.keys.meta));
    if (!meta || Object.keys(meta).length === 0) return undefined;
    const date = (value: string | undefined) => new Date(value ? Number(value) : Date.now());
    return {
      id: this.id,
      name: meta.name || undefined,
      createdAt: date(meta.createdAt),
      modifiedAt: date(meta.modifiedAt ?? meta.createdAt),
      accessedAt: new Date(),
      totalRequestCount: Number(meta.total ?? 0),
      handledRequestCount: Number(meta.handled ?? 0),
      pendingRequestCount: Number(meta.pending ?? 0),
      hadMultipleClients: meta.multipleClients === '1',
      stats: {},
    };
  }

  /**
   * Renaming a shared queue is not supported (every worker addresses it by name); a call without a new name
   * returns the queue info.
   *
   * @param newFields - `{ name }`
   * @returns the queue info
   * @throws {@link UnsupportedOperationError} for a new name
   */
  async update(newFields: { name?: string }): Promise<Partial<RequestQueueInfo> | undefined> {
    const info = await this.get();
    if (newFields.name !== undefined && newFields.name !== info?.name) {
      throw new UnsupportedOperationError(`request queue "${this.id}" cannot be renamed; open a queue with the new name and add the requests there`);
    }
    return info;
  }

  /** Deletes the queue and all its requests and dead letters (Crawlee's `queue.drop()`). Explicit only:
   * `purgeOnStart` never calls this. */
  async delete(): Promise<void> {
    await this.script('purgeQueue', [this.offset(), '1']);
    await this.ctx.connection.run(() => this.ctx.connection.redis.srem(queueIndexKey(this.ctx.keyPrefix), this.id));
    this.lockedRequests.clear();
  }

  /**
   * Lists unhandled requests in queue order, locked ones included (Crawlee's legacy `isFinished` path).
   *
   * @param options - `limit` (default 100)
   * @returns the head
   */
  async listHead(options: ListOptions = {}): Promise<QueueHead> {
    const limit = options.limit ?? 100;
    const reply = (await this.script('listHead', [limit], [], true)) as Array<Buffer | number>;
    const items: RequestQueueHeadItem[] = [];
    for (let i = 2; i + 1 < reply.length; i += 2) {
      const decoded = decodeRequest(reply[i + 1] as Buffer, String(reply[i]));
      if (decoded.ok) items.push(toHeadItem(decoded.request));
    }
    return {
      limit,
      queueModifiedAt: reply[0]?.toString() ? new Date(Number(reply[0].toString())) : new Date(),
      hadMultipleClients: Number(reply[1]) === 1,
      items,
    };
  }

  /**
   * Adds one request, deduplicated by uniqueKey.
   *
   * @param request - the request
   * @param options - `forefront`
   * @returns `{ requestId, wasAlreadyPresent, wasAlreadyHandled }`
   * @throws {@link InvalidRequestError} for a request that cannot be stored (nothing is written)
   */
  async addRequest(request: RequestSchema, options: RequestOptions = {}): Promise<QueueOperationInfo> {
    const { processedRequests } = await this.batchAddRequests([request], options);
    const { requestId, wasAlreadyPresent, wasAlreadyHandled } = processedRequests[0]!;
    return { requestId, wasAlreadyPresent, wasAlreadyHandled };
  }

  /**
   * Adds requests atomically per chunk, deduplicated by uniqueKey (and through the attached enqueue filter).
   * Any number of requests; they are sent in chunks of `addBatchSize`.
   *
   * @param requests - the requests
   * @param options - `forefront`
   * @returns one processed entry per request, in order; `unprocessedRequests` is always empty
   * @throws {@link InvalidRequestError} when any request cannot be stored (checked before anything is written)
   */
  async batchAddRequests(requests: RequestSchema[], options: RequestOptions = {}): Promise<BatchAddRequestsResult> {
    const encoded = requests.map((request) => encodeRequest(request));
    const processedRequests: ProcessedRequest[] = [];
    const forefront = options.forefront ? '1' : '0';
    for (let start = 0; start < encoded.length; start += this.ctx.addBatchSize) {
      const chunk = encoded.slice(start, start + this.ctx.addBatchSize);
      const codes = await this.addChunk(chunk, forefront);
      chunk.forEach((request, i) => {
        const code = codes[i];
        processedRequests.push({
          uniqueKey: request.uniqueKey,
          requestId: request.id,
          wasAlreadyPresent: code !== ADDED,
          wasAlreadyHandled: code === PRESENT_HANDLED,
        });
      });
    }
    return { processedRequests, unprocessedRequests: [] };
  }

  private async addChunk(chunk: EncodedRequest[], forefront: string): Promise<number[]> {
    const filter = this.filter;
    let planJson = '';
    let planKeys: string[] = [];
    let dedupCounter: DedupCounterLocation | undefined; // worker-stats hook
    if (filter) {
      const plan = filter.source.planEnqueueFilter(
        chunk.map((r) => filter.keyOf({ uniqueKey: r.uniqueKey, url: r.url, method: r.method })),
      );
      validateEnqueueFilterPlan(plan, chunk.length);
      planKeys = plan.keys;
      planJson = JSON.stringify({ ops: plan.ops, counter: plan.counter });
      if (plan.counter) dedupCounter = { key: plan.keys[plan.counter.key]!, field: plan.counter.filteredField }; // worker-stats hook
    }
    const args: ScriptArg[] = [forefront, this.offset(), planJson];
    for (const r of chunk) args.push(r.id, r.json, r.handled ? '1' : '0');
    const codes = ((await this.script('addRequests', args, planKeys)) as unknown[]).map(Number);
    this.workerStats.added(codes, dedupCounter); // worker-stats hook
    if (filter?.onFiltered) {
      const filtered = codes.filter((c) => c === FILTERED).length;
      if (filtered > 0) filter.onFiltered(filtered);
    }
    return codes;
  }

  /**
   * Reads one request. An entry that cannot be read is moved to the dead letters and reads as undefined.
   *
   * @param id - the request id
   * @returns the stored request, or undefined
   */
  async getRequest(id: string): Promise<RequestOptions | undefined> {
    const locked = this.lockedRequests.get(id);
    if (locked !== undefined) {
      this.lockedRequests.delete(id);
      return locked;
    }
    this.flushBatches();
    const raw = (await this.ctx.connection.run(() => this.ctx.connection.redis.hgetBuffer(this.keys.data, id))) ?? undefined;
    if (raw === undefined) return undefined;
    const decoded = decodeRequest(raw, id);
    if (decoded.ok) return decoded.request;
    await this.deadLetter(id, raw, decoded.reason);
    return undefined;
  }

  /**
   * Stores a request's new state. With `handledAt`: marks it handled, removes its lock, moves the counters (atomic,
   * idempotent). Without: a reclaim, it becomes available again (original order, or the head with `forefront`).
   * Never throws for a lost lock.
   *
   * @param request - the request with its id
   * @param options - `forefront`
   * @returns `{ requestId, wasAlreadyPresent, wasAlreadyHandled }` (the state before the update)
   * @throws {@link InvalidRequestError} when the id does not match the uniqueKey or the request is not storable
   */
  async updateRequest(request: UpdateRequestSchema, options: RequestOptions = {}): Promise<QueueOperationInfo> {
    const encoded = encodeRequest(request, this.heldLocks);
    this.workerStats.updated(request); // worker-stats hook
    this.lockedRequests.delete(encoded.id);
    this.heldLocks.delete(encoded.id);
    this.freshLocks.delete(encoded.id);
    if (this.prolongs.holds(encoded.id)) this.prolongs.flushNow();
    return this.updates.call({ encoded, forefront: options.forefront ?? false });
  }

  private async updateBatch(items: UpdateItem[]): Promise<QueueOperationInfo[]> {
    const args: ScriptArg[] = [this.clientKey, this.offset()];
    for (const { encoded, forefront } of items) args.push(encoded.id, encoded.json, encoded.handled ? '1' : '0', forefront ? '1' : '0');
    const reply = (await this.script('updateRequest', args)) as unknown[];
    return items.map(({ encoded }, i) => ({
      requestId: encoded.id,
      wasAlreadyPresent: Number(reply[2 * i]) === 1,
      wasAlreadyHandled: Number(reply[2 * i + 1]) === 1,
    }));
  }

  /** Deletes one request and moves the counters.
   * @param id - the request id */
  async deleteRequest(id: string): Promise<unknown> {
    this.lockedRequests.delete(id);
    this.freshLocks.delete(id);
    return this.script('deleteRequest', [id, this.offset()]);
  }

  /**
   * Atomically locks up to `limit` available requests for this client, after moving expired locks back to their
   * original place. When nothing is available and a start-URL feed is configured, drains one feed batch first.
   *
   * @param options - `limit` (default 25, at most 1000) and `lockSecs`
   * @returns the locked head items and `queueHasLockedRequests` (any client's unexpired lock)
   * @throws {@link InvalidOptionsError} for a bad limit or lock time
   */
  async listAndLockHead(options: ListAndLockOptions): Promise<ListAndLockHeadResult> {
    const limit = options.limit ?? 25;
    const { lockSecs } = options;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LOCK_LIMIT) {
      throw new InvalidOptionsError(`listAndLockHead limit must be an integer from 0 to ${MAX_LOCK_LIMIT} (got ${limit})`);
    }
    const lockMs = lockMsOf('listAndLockHead lockSecs', lockSecs);
    let result = await this.lockHead(limit, lockSecs, lockMs);
    if (result.items.length === 0 && limit > 0 && this.ctx.startUrls) {
      const moved = await drainStartUrls(this, this.ctx.startUrls, this.offset());
      if (moved > 0) result = await this.lockHead(limit, lockSecs, lockMs);
    }
    this.workerStats.locked(result.items.length); // worker-stats hook
    return result;
  }

  private async lockHead(limit: number, lockSecs: number, lockMs: number): Promise<ListAndLockHeadResult> {
    // fastProlong with the expiry rule: Crawlee prolongs every request it takes from its buffer by the same lock
    // time, from the current expiry; taking the lock for twice the time at once gives the same expiry without the
    // prolong's round trip (see prolongRequestLock).
    const appliedMs = this.ctx.fastProlong && this.ctx.prolongLockFrom === 'expiry' ? lockMs : 0;
    const lockedAt = performance.now();
    // Buffers: stored bytes go back to the dead-letter script unchanged, even when they are not UTF-8.
    const reply = (await this.script(
      'listAndLockHead',
      [limit, lockMs + appliedMs, this.clientKey, this.offset(), this.ctx.recoverLimit],
      [],
      true,
    )) as Array<Buffer | number>;
    const items: RequestQueueHeadItem[] = [];
    for (let i = 4; i + 1 < reply.length; i += 2) {
      const id = reply[i]!.toString();
      const raw = reply[i + 1] as Buffer;
      const decoded = decodeRequest(raw, id);
      if (!decoded.ok) {
        await this.deadLetter(id, raw, decoded.reason);
        continue;
      }
      if (this.ctx.cacheLockedRequests) {
        if (this.lockedRequests.size >= CACHE_LIMIT) this.lockedRequests.clear();
        this.lockedRequests.set(id, decoded.request);
      }
      this.heldLocks.set(id, decoded.request.uniqueKey);
      if (this.ctx.fastProlong) {
        if (this.freshLocks.size >= CACHE_LIMIT) this.freshLocks.clear();
        this.freshLocks.set(id, { lockedAt, lockMs, expiresAt: Number(reply[2]) + lockMs + appliedMs, appliedMs });
      }
      items.push(toHeadItem(decoded.request));
    }
    return {
      limit,
      lockSecs,
      queueHasLockedRequests: Number(reply[0]) === 1,
      hadMultipleClients: Number(reply[1]) === 1,
      queueModifiedAt: reply[3]?.toString() ? new Date(Number(reply[3].toString())) : new Date(),
      items,
    };
  }

  /**
   * Prolongs this client's lock. By default the new expiry counts from the current expiry (Crawlee MemoryStorage
   * semantics; option `prolongLockFrom: 'now'` counts from now).
   *
   * @param id - the request id
   * @param options - `lockSecs`, `forefront` (the request goes to the head once released)
   * @returns the new expiry (Redis time)
   * @throws {@link LockLostError} when the lock expired and was recovered or another client holds it
   * @throws {@link RequestAlreadyHandledError} for a handled request
   * @throws {@link RequestNotFoundError} for an unknown id
   */
  async prolongRequestLock(id: string, options: ProlongRequestLockOptions): Promise<ProlongRequestLockResult> {
    const lockMs = lockMsOf('prolongRequestLock lockSecs', options?.lockSecs);
    const fresh = this.freshLocks.get(id);
    this.freshLocks.delete(id);
    if (fresh && this.ctx.fastProlong && !options.forefront) {
      // Locked by this client less than half a lock time ago, so nobody else can hold it.
      if (performance.now() - fresh.lockedAt < fresh.lockMs / 2) {
        // The lock was taken with this prolong's time already added: the expiry it has is the answer.
        if (fresh.appliedMs === lockMs) return { lockExpiresAt: new Date(fresh.expiresAt) };
        if (fresh.appliedMs === 0) {
          // Extend in the background (same rule as the script) and answer now. Commands on one connection run in
          // order, so later calls see the new expiry.
          const from = this.ctx.prolongLockFrom === 'expiry' ? fresh.expiresAt : fresh.expiresAt - fresh.lockMs;
          this.prolong({ id, lockMs, forefront: false, mode: this.ctx.prolongLockFrom, appliedMs: 0 }).catch((error: unknown) => {
            log.debug(`crawlee-redis-queue: background lock prolongation of ${id} failed`, { error: String(error) });
          });
          return { lockExpiresAt: new Date(from + lockMs) };
        }
      }
    }
    return this.prolongChecked(id, lockMs, options.forefront ?? false, this.ctx.prolongLockFrom, fresh?.appliedMs ?? 0);
  }

  /**
   * Sets this client's lock to expire `lockSecs` from now (Redis time), whatever the prolong mode: the call for a
   * heartbeat of a handler that runs longer than the lock (repeated `prolongRequestLock` calls in the default
   * `'expiry'` mode would pile lock time up, delaying recovery if the worker dies).
   *
   * @param id - the request id
   * @param options - `lockSecs`
   * @returns the new expiry (Redis time)
   * @throws {@link LockLostError} when the lock expired and was recovered or another client holds it
   * @throws {@link RequestAlreadyHandledError} for a handled request
   * @throws {@link RequestNotFoundError} for an unknown id
   */
  async refreshRequestLock(id: string, options: { lockSecs: number }): Promise<ProlongRequestLockResult> {
    this.freshLocks.delete(id);
    return this.prolongChecked(id, lockMsOf('refreshRequestLock lockSecs', options?.lockSecs), false, 'now', 0);
  }

  private async prolongChecked(
    id: string,
    lockMs: number,
    forefront: boolean,
    mode: 'expiry' | 'now',
    appliedMs: number,
  ): Promise<ProlongRequestLockResult> {
    try {
      const expiresAt = await this.prolong({ id, lockMs, forefront, mode, appliedMs });
      return { lockExpiresAt: new Date(expiresAt) };
    } catch (error) {
      // Lost, handled or gone: this client no longer holds it.
      if (error instanceof RedisQueueError && error.code !== 'REDIS_SCRIPT_ERROR') {
        this.heldLocks.delete(id);
        this.lockedRequests.delete(id);
      }
      throw error;
    }
  }

  private prolong(item: ProlongItem): Promise<number> {
    if (this.updates.holds(item.id)) this.updates.flushNow();
    return this.prolongs.call(item);
  }

  private async prolongBatch(items: ProlongItem[]): Promise<Array<number | Error>> {
    const args: ScriptArg[] = [this.clientKey, this.offset()];
    for (const item of items) args.push(item.id, item.lockMs, item.forefront ? '1' : '0', item.mode, item.appliedMs);
    const reply = (await this.script('prolongRequestLock', args)) as unknown[];
    // Per request: the new expiry, or the error code and detail as a string.
    return reply.map((entry) =>
      typeof entry === 'number' ? entry : mapScriptError(new Error(String(entry)), `request queue "${this.id}" prolongRequestLock`),
    );
  }

  /**
   * Releases this client's lock; the request becomes available at its original place (or the head with
   * `forefront`). Idempotent: a request not locked by this client is left alone, without an error.
   *
   * @param id - the request id
   * @param options - `forefront`
   */
  async deleteRequestLock(id: string, options: DeleteRequestLockOptions = {}): Promise<void> {
    this.lockedRequests.delete(id);
    this.heldLocks.delete(id);
    this.freshLocks.delete(id);
    await this.script('deleteRequestLock', [id, this.clientKey, options.forefront ? '1' : '0']);
  }

  /**
   * Releases every lock this client still holds (requests it locked and has not handled or reclaimed, including the
   * ones Crawlee buffered locally), each back at its original place. Call it when a worker shuts down (SIGTERM), so
   * others take the requests at once instead of after the lock time. Locks lost to other clients are left alone.
   *
   * @returns the number of locks released
   */
  async releaseLocks(): Promise<number> {
    const ids = [...this.heldLocks.keys()];
    this.heldLocks.clear();
    this.lockedRequests.clear();
    this.freshLocks.clear();
    let released = 0;
    for (let start = 0; start < ids.length; start += 500) {
      released += Number(await this.script('releaseLocks', [this.clientKey, ...ids.slice(start, start + 500)]));
    }
    return released;
  }

  /** Moves an unreadable entry to the dead letters (when it still holds the bytes that failed). */
  private async deadLetter(id: string, raw: Buffer, reason: string): Promise<void> {
    this.lockedRequests.delete(id);
    const moved = await this.script('deadLetterRequest', [id, raw, reason, this.offset()]);
    if (Number(moved) === 1) {
      log.warning(`crawlee-redis-queue: request ${id} of queue "${this.id}" cannot be read (${reason}); moved to the dead letters`);
    }
  }

  /** @internal Runs the feed commit script (used by the start-URL feed). */
  async runFeedScript(args: ScriptArg[], feedKey: string | undefined): Promise<unknown> {
    return this.script('drainStartUrls', args, feedKey ? [feedKey] : []);
  }

  /** @internal The connection settings, for the start-URL feed. */
  get context(): QueueContext {
    return this.ctx;
  }

  /**
   * True when `source`'s plans can run inside this queue's add script: same Redis (same connection object, or same
   * host, port and db), and on a Cluster every key of the source on this queue's slot.
   *
   * @param source - a dedup store offering the seam
   */
  canAttachEnqueueFilter(source: EnqueueFilterSource): boolean {
    return canAttachEnqueueFilter(this.ctx.connection.redis, this.keys.tag, source);
  }

  /**
   * Runs `source`'s check-and-set inside every add of this client from now on.
   *
   * @param source - a dedup store offering the seam
   * @param options - `keyOf` (default: uniqueKey), `onFiltered`
   * @throws {@link EnqueueFilterIncompatibleError} when {@link RedisRequestQueueClient.canAttachEnqueueFilter} is false
   */
  attachEnqueueFilter(source: EnqueueFilterSource, options: AttachEnqueueFilterOptions = {}): void {
    if (!this.canAttachEnqueueFilter(source)) {
      throw new EnqueueFilterIncompatibleError(
        `the dedup store cannot run inside request queue "${this.id}"'s scripts (another Redis, or keys outside hash tag ${this.keys.tag}); filter in front of the queue instead`,
      );
    }
    this.filter = { source, keyOf: options.keyOf ?? ((r) => r.uniqueKey), onFiltered: options.onFiltered };
  }

  /** Stops running the enqueue filter in the add script. */
  detachEnqueueFilter(): void {
    this.filter = undefined;
  }
}

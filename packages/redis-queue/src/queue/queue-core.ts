import { log } from 'crawlee';
import type {
  ProcessedRequest,
  QueueHead,
  QueueOperationInfo,
  RequestQueueHeadItem,
  RedisRequestQueueInfo,
  RequestSchema,
  UpdateRequestSchema,
} from '../core/crawlee-types.js';
import { StartUrlFeed, type FeedSource } from '../feed/start-url-feed.js';
import { checkStartUrlFeed, drainStartUrls } from '../feed/drain-start-urls.js';
import { EnqueueFilterSlot } from '../filter/enqueue-filter-slot.js';
import { queueKeys, type QueueKeys } from '../core/keys.js';
import { indexQueue, unindexQueue } from '../core/queue-index.js';
import { AddPath } from './add-path.js';
import { createQueueArgs } from './handled-store.js';
import { LockBatches } from './lock-batches.js';
import { LockLedger, type StoredRequest } from './lock-ledger.js';
import type { QueueContext } from './queue-context.js';
import { QueueLocks } from './queue-locks.js';
import { QueueScripts } from '../core/queue-scripts.js';
import { DEAD_LETTER_MOVED, DELETE_REPLY } from '../core/reply-codes.js';
import { UnsupportedOperationError } from '../errors/unsupported-operation-error.js';
import { decodeRequest, encodeRequest, toHeadItem } from '../core/request-codec.js';
import { checkPolitenessSpec, politenessSpec, QueuePoliteness } from '../politeness/queue-politeness.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';
import { QueueMemoryCache } from '../stats/queue-memory-cache.js';
import { classifyUpdate, NO_WORKER_STATS, type WorkerStatsRecorder } from '../stats/worker-stats-recorder.js';
import { metaNumber } from '../core/meta-number.js';
import { Heartbeat } from '../liveness/heartbeat.js';
import type { LockHeadResult } from '../politeness/lock-when-open.js';
import type { QueueCoreApi } from './queue-core-api.js';

/**
 * The queue core of one Redis request queue for one lock owner (`clientKey`): typed script calls that carry the
 * keys, the one add path, the locks, the batching and the caches. It knows nothing of Crawlee's client interfaces:
 * the Crawlee 3 adapter (`storage/redis-request-queue-client.ts`) maps `RequestQueueClient` onto it, and a Crawlee 4
 * `RequestQueueBackend` adapter would map fetchNextRequest / markRequestAsHandled / reclaimRequest onto
 * {@link QueueCore.lockHead}, {@link QueueCore.update} and {@link QueueCore.release}.
 */
export class QueueCore implements QueueCoreApi {
  /** The queue's keys. */
  readonly keys: QueueKeys;
  /** The queue's scripts (also used by the feed). */
  readonly scripts: QueueScripts;
  /** The one add path (uniqueKey transform, enqueue filter, add script). */
  readonly addPath: AddPath;
  /** The enqueue filter. */
  readonly filter: EnqueueFilterSlot;
  /** The lock operations. */
  readonly locks: QueueLocks;
  /** This worker's stats counters (src/stats/), published in the background; a no-op with `workerStats: false`. */
  readonly workerStats: WorkerStatsRecorder;
  /** Fleet-wide politeness (src/politeness/): host keys, retry delays, backOffHost, stats. */
  readonly politeness: QueuePoliteness;
  /** The start-URL feed (src/feed/), or undefined without one. */
  private readonly feed?: StartUrlFeed;
  private readonly ledger = new LockLedger();
  private readonly memory: QueueMemoryCache;
  /** Set once this client knows the queue's meta exists (opened through ensureCreated, or checked on first use). */
  private metaChecked?: Promise<void>;
  private readonly batches: LockBatches;
  /** This client's heartbeat (src/liveness/), or undefined with `liveness: false`. */
  readonly heartbeat?: Heartbeat;

  /**
   * @param ctx - connection and settings shared by the storage client
   * @param id - the queue id (for a named queue, its name)
   * @param clientKey - lock owner
   * @param keys - the keys to work on (a shard's, from src/shard/); default: the queue's own
   * @throws {@link InvalidOptionsError} for a queue id that cannot be part of a key
   */
  constructor(
    private readonly ctx: QueueContext,
    readonly id: string,
    readonly clientKey: string,
    keys?: QueueKeys,
  ) {
    this.keys = keys ?? queueKeys(ctx.keyPrefix, id);
    this.batches = new LockBatches(() => this.scripts, clientKey, ctx.failedRequests, ctx.liveness?.windowMs ?? 0);
    // Every command other than the batched ones goes out after the waiting batches (call order across kinds).
    this.scripts = new QueueScripts(ctx.connection, this.keys, id, ctx.clockOffsetMs, (name) => {
      if (name !== 'prolongRequestLock' && name !== 'updateRequest') this.batches.flushAll();
    }, ctx.durability);
    this.politeness = new QueuePoliteness(this.scripts, ctx.politeness);
    this.memory = new QueueMemoryCache(ctx.connection.redis, this.keys, (read) => ctx.connection.run(read));
    this.filter = new EnqueueFilterSlot(ctx.connection.redis, this.keys.tag, id);
    this.workerStats =
      ctx.workerStats?.create({
        connection: ctx.connection,
        keys: this.keys,
        clientKey,
        lockCount: () => this.ledger.heldUniqueKeys.size,
        lapses: () => this.heartbeat?.lapses ?? 0,
        clockOffsetMs: ctx.clockOffsetMs,
      }) ?? NO_WORKER_STATS;
    this.addPath = new AddPath(this.scripts, this.filter, ctx.addBatchSize, this.workerStats, this.politeness, ctx.handledStore.mode === 'store');
    const feed = ctx.startUrls;
    if (feed) {
      const source: FeedSource = {
        check: () => checkStartUrlFeed(this.scripts, feed),
        drain: async (warnings) => ({ consumed: await drainStartUrls(this.scripts, this.addPath, feed, warnings), busy: false }),
      };
      this.feed = new StartUrlFeed(source, ctx.connection, feed.maxIdleSecs, ctx.clockOffsetMs);
    }
    const heartbeat = ctx.liveness && new Heartbeat(
      { connection: ctx.connection, liveKey: this.keys.live, clientKey, queueName: id, offset: () => this.scripts.offset(), wantsBeat: () => this.locks.wantsBeat() },
      ctx.liveness,
      (started) => ctx.heartbeats.add(started),
    );
    this.heartbeat = heartbeat || undefined;
    this.locks = new QueueLocks(this.scripts, this.ledger, this.batches, ctx, clientKey, (i, raw, reason) => this.deadLetter(i, raw, reason), this.heartbeat);
  }

  /** Producer leases taken on the storage client's queues (released by its `close()`). */
  get producerLeases(): QueueContext['producerLeases'] {
    return this.ctx.producerLeases;
  }

  /** A client used without `ensureCreated` (Crawlee always calls it; direct API users may not) checks once, before
   * its first add, listHead or lock, that the queue's meta was made by create-queue.lua (`format` 2), and runs it
   * otherwise, so the queue records this client's handled mode and politeness. One HGET on an existing queue. */
  ensureMeta(): Promise<void> {
    this.metaChecked ??= this.createIfMissing().then(
      () => undefined,
      (error: unknown) => {
        this.metaChecked = undefined;
        throw error;
      },
    );
    return this.metaChecked;
  }

  private async createIfMissing(): Promise<void> {
    if ((await this.redis((r) => r.hget(this.keys.meta, 'format'))) === '2') return;
    await this.create(undefined);
  }

  /** Runs create-queue.lua (creates or checks the queue: politeness, handled mode). */
  private async create(name: string | undefined): Promise<void> {
    const mine = politenessSpec(this.ctx.politeness);
    const args = [this.id, name ?? '', this.scripts.offset(), mine, ...createQueueArgs(this.ctx.handledStore)];
    const reply = (await this.scripts.run('createQueue', args)) as [number, string, string];
    checkPolitenessSpec(this.id, reply[1] ?? '', mine);
  }

  private redis<T>(command: (redis: QueueContext['connection']['redis']) => Promise<T>): Promise<T> {
    this.batches.flushAll();
    return this.ctx.connection.run(() => command(this.ctx.connection.redis));
  }

  /** Creates the metadata if missing (idempotent) and registers the queue in the index; checks the start-URL feed
   * keys' types, and this client's politeness against the queue's (fixed at creation). @param name - or undefined
   * @throws {@link StartUrlFeedTypeError} for a feed key of another type
   * @throws {@link PolitenessMismatchError} when the queue was created with other politeness settings */
  async ensureCreated(name: string | undefined): Promise<void> {
    await this.feed?.check();
    await this.create(name);
    this.metaChecked = Promise.resolve();
    await this.redis((r) => indexQueue(r, this.ctx.keyPrefix, this.id));
  }

  /** @returns the queue info with counters from Redis and `memoryBytes` (bytes of the queue's keys, measured at
   * most 10 s ago: {@link QueueMemoryCache}), or undefined when the queue does not exist */
  async info(): Promise<RedisRequestQueueInfo | undefined> {
    const [meta, memory] = await Promise.all([this.redis((r) => r.hgetall(this.keys.meta)), this.memory.read().catch(() => undefined)]);
    if (!meta || Object.keys(meta).length === 0) return undefined;
    this.warnIfBloomFull(meta);
    const context = `request queue "${this.id}" get`;
    const date = (field: 'createdAt' | 'modifiedAt', value: string | undefined) => new Date(value ? metaNumber(context, this.keys.meta, field, value, 0) : Date.now());
    return {
      id: this.id,
      name: meta.name || undefined,
      createdAt: date('createdAt', meta.createdAt),
      modifiedAt: meta.modifiedAt === undefined ? date('createdAt', meta.createdAt) : date('modifiedAt', meta.modifiedAt),
      accessedAt: new Date(),
      totalRequestCount: metaNumber(context, this.keys.meta, 'total', meta.total, 0),
      handledRequestCount: metaNumber(context, this.keys.meta, 'handled', meta.handled, 0),
      pendingRequestCount: metaNumber(context, this.keys.meta, 'pending', meta.pending, 0),
      hadMultipleClients: meta.multipleClients === '1',
      stats: {},
      memoryBytes: memory?.bytes,
    };
  }

  private bloomWarned = false;

  /** Once per client: a 'bits' queue holding more handled requests than its filter was sized for (its false-positive
   * rate grows past the target; RedisQueueAdmin.storage() reports the estimate). @param meta - the queue's meta */
  private warnIfBloomFull(meta: Record<string, string>): void {
    if (this.bloomWarned || meta.hmode !== 'bits') return;
    const [expected, rate] = (meta.hbSizing ?? '').split(':').map(Number);
    if (!(Number(meta.handled) > expected!)) return;
    this.bloomWarned = true;
    log.warning(
      `crawlee-redis-queue: queue "${this.id}" holds ${meta.handled} handled requests, more than its handledBloom.expectedRequests ` +
        `(${expected}); new requests are now wrongly reported as handled more often than ${rate}. Create the next crawl's queue with a larger expectedRequests`,
    );
  }

  /** Deletes the queue, its requests and dead letters, and its index entry. */
  async drop(): Promise<void> {
    await this.scripts.run('purgeQueue', [this.scripts.offset(), '1'], { extraKeys: [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.suspects, this.keys.leases] });
    await this.redis((r) => unindexQueue(r, this.ctx.keyPrefix, this.id));
    this.ledger.dropAllCached();
    // A later add through this client re-creates the queue (its scripts never re-create a queue they find gone).
    this.metaChecked = undefined;
  }

  /** Unhandled requests in queue order, locked ones included. @param limit - at most this many */
  async listHead(limit: number): Promise<QueueHead> {
    await this.ensureMeta();
    const reply = (await this.scripts.run('listHead', [limit], { buffers: true })) as Array<Buffer | number>;
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

  /** Adds requests through the one add path. @param requests - the requests @param forefront - at the head */
  async add(requests: readonly RequestSchema[], forefront: boolean): Promise<ProcessedRequest[]> {
    await this.ensureMeta();
    return this.addPath.add(requests, forefront);
  }

  /** One stored request (an unreadable one goes to the dead letters and reads as undefined). @param id - request id */
  async getRequest(id: string): Promise<StoredRequest | undefined> {
    const locked = this.ledger.takeLockedRequest(id);
    if (locked !== undefined) return locked;
    // Unhandled requests are in data; handled ones only in the 'request' mode's done hash ('key' and 'bits' keep
    // no request: undefined).
    const raw = (await this.redis((r) => r.hgetBuffer(this.keys.data, id))) ?? (await this.redis((r) => r.hgetBuffer(this.keys.done, id))) ?? undefined;
    if (raw === undefined) return undefined;
    const decoded = decodeRequest(raw, id);
    if (decoded.ok) return decoded.request;
    await this.deadLetter(id, raw, decoded.reason);
    return undefined;
  }

  /**
   * Stores a request's new state: handled with `handledAt`, else reclaimed (available again). Never throws for a
   * lost lock.
   * @param request - the request with its id
   * @param forefront - a reclaimed request goes to the head
   * @throws {@link InvalidRequestError} when the id does not match the uniqueKey or the request is not storable
   */
  update(request: UpdateRequestSchema, forefront: boolean): Promise<QueueOperationInfo> {
    const encoded = encodeRequest(request, this.ledger.heldUniqueKeys);
    const polite = this.politeness.updateEntry(encoded.url, (request as { retryCount?: unknown }).retryCount, encoded.handled);
    this.ledger.forget(encoded.id);
    // Counted once the script answered, and only when this update did something: a request another worker handled
    // meanwhile (its lock had lapsed and was refetched) was not handled here, so "succeeded" never exceeds "handled".
    return this.batches.update({ encoded, forefront, failed: encoded.handled && classifyUpdate(request) === 'failed', polite }).then((info) => {
      if (!info.wasAlreadyHandled) this.workerStats.updated(request);
      return info;
    });
  }

  /**
   * Deletes one request (pending, locked or handled) and moves the counters.
   * @param id - request id
   * @throws {@link UnsupportedOperationError} for a handled request of a `handledRequests: 'bits'` queue (its bits
   *   are shared with other requests; nothing changed)
   */
  async deleteRequest(id: string): Promise<unknown> {
    this.ledger.dropCached(id);
    const reply = await this.scripts.run('deleteRequest', [id, this.scripts.offset()], { extraKeys: [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.failedKept] });
    if (Number(reply) === DELETE_REPLY.KEPT_AS_BITS) {
      throw new UnsupportedOperationError(
        `request ${id} of queue "${this.id}" is handled, and a handledRequests: 'bits' queue cannot forget a handled request (its Bloom bits are shared with other requests); nothing was changed. Use handledRequests: 'key' for a queue whose handled requests must be deletable`,
      );
    }
    return reply;
  }

  /**
   * Locks up to `limit` available requests; when none is available and a start-URL feed is configured, drains one
   * feed batch through the add path and locks again (and keeps `queueHasLockedRequests` true during the feed's
   * `maxIdleSecs` window).
   * @param limit - requests to lock (0 to 1000)
   * @param lockSecs - lock time in seconds
   * @throws {@link InvalidOptionsError} for a bad limit or lock time
   */
  async lockHead(limit: number, lockSecs: number): Promise<LockHeadResult> {
    const lockMs = this.locks.checkLockArgs(limit, lockSecs);
    await this.ensureMeta();
    let result = await this.locks.lockHead(limit, lockSecs, lockMs);
    if (limit > 0 && this.feed) result = await this.feed.fill(result, () => this.locks.lockHead(limit, lockSecs, lockMs), lockSecs);
    this.workerStats.locked(result.items.length);
    return result;
  }

  /**
   * Pushes a host's next allowed time for the whole fleet to at least now + delaySecs (Redis time).
   * @param host - a host key ({@link QueueCore.hostKeyOf})
   * @param delaySecs - seconds, 0 to 604,800
   * @throws {@link InvalidOptionsError} for a bad host or delay; {@link PolitenessMismatchError} without politeness
   */
  backOffHost(host: string, delaySecs: number): Promise<void> {
    return this.politeness.backOffHost(host, delaySecs);
  }

  /** Host key of a URL with this queue's hostKey. @param url - the URL */
  hostKeyOf(url: string): string {
    return this.politeness.hostKeyOf(url);
  }

  /** The queue's politeness state. @param top - hosts listed in `inFlight` (default 20) */
  politenessStats(top?: number): Promise<PolitenessStats> {
    return this.politeness.stats(top);
  }

  private async deadLetter(id: string, raw: Buffer, reason: string): Promise<void> {
    this.ledger.dropCached(id);
    const moved = await this.scripts.run('deadLetterRequest', [id, raw, reason, this.scripts.offset()], { extraKeys: [this.keys.stalls] });
    if (Number(moved) === DEAD_LETTER_MOVED) {
      log.warning(`crawlee-redis-queue: request ${id} of queue "${this.id}" cannot be read (${reason}); moved to the dead letters`);
    }
  }
}

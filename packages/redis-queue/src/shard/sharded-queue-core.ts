import type { LockHeadResult } from '../politeness/lock-when-open.js';
import type {
  ProcessedRequest,
  QueueHead,
  QueueOperationInfo,
  RequestQueueInfo,
  RequestSchema,
  UpdateRequestSchema,
} from '../core/crawlee-types.js';
import { RequestNotFoundError } from '../errors/request-not-found-error.js';
import type { StoredRequest } from '../queue/lock-ledger.js';
import type { QueueContext } from '../queue/queue-context.js';
import { QueueCore } from '../queue/queue-core.js';
import type { QueueCoreApi } from '../queue/queue-core-api.js';
import { encodeRequest } from '../core/request-codec.js';
import { queueKeys, type QueueKeys } from '../core/keys.js';
import { unindexQueue } from '../core/queue-index.js';
import { ADD_ADDED, ADD_PRESENT, ADD_HANDLED } from '../core/reply-codes.js';
import { NO_WORKER_STATS, type WorkerStatsRecorder } from '../stats/worker-stats-recorder.js';
import type { UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import { ShardFilter } from './shard-filter.js';
import { StartUrlFeed } from '../feed/start-url-feed.js';
import { ShardHead } from './shard-head.js';
import { ShardedFeedDrain } from './sharded-feed-drain.js';
import { assertNotShardName, shardQueueKeys } from './shard-keys.js';
import { ShardMemory } from './shard-memory.js';
import { shardOf, shardOfKey } from './shard-of.js';
import { shardHandledStore } from '../queue/handled-store.js';
import { checkPoliteShard, mergePolitenessStats, shardKeyOfHost } from './shard-politeness.js';
import { DEFAULT_IN_FLIGHT_TOP, type PolitenessStats } from '../politeness/politeness-stats.js';

/**
 * A queue of S shards for one lock owner, composed above {@link QueueCore}: one QueueCore per shard, each on its
 * own hash tag (src/shard/shard-keys.ts), so every Lua script stays atomic within its shard. A request's shard is a
 * pure function of its uniqueKey (src/shard/shard-of.ts), so dedup by uniqueKey is one script in one shard.
 * Fleet semantics across shards: `lockHead` in src/shard/shard-head.ts; counters are sums; `getRequest(id)` asks the
 * shard this client remembers for the id, else every shard at once (auto-pipelined).
 */
export class ShardedQueueCore implements QueueCoreApi {
  /** The root keys (the unsharded tag; its meta records the shard count). */
  readonly keys: QueueKeys;
  /** One core per shard. */
  readonly cores: readonly QueueCore[];
  readonly workerStats: WorkerStatsRecorder;
  private readonly memory = new ShardMemory();
  private readonly head: ShardHead;
  private readonly held = new Set<string>();

  /**
   * @param ctx - connection and settings (`shards` above 1)
   * @param id - the queue id (name)
   * @param clientKey - lock owner
   * @throws {@link InvalidOptionsError} for a queue id that cannot be part of a key or looks like a shard's
   */
  constructor(
    private readonly ctx: QueueContext,
    readonly id: string,
    readonly clientKey: string,
  ) {
    this.keys = queueKeys(ctx.keyPrefix, id);
    assertNotShardName(id);
    // Worker stats are published once per client under the root tag (below), not once per shard.
    // Each shard's 'bits' filter is sized for its share of the expected count, so S shards cost one queue's filter.
    const shardCtx: QueueContext = { ...ctx, workerStats: undefined, startUrls: undefined, handledStore: shardHandledStore(ctx.handledStore, ctx.shards) };
    this.cores = Array.from({ length: ctx.shards }, (_, s) => new QueueCore(shardCtx, id, clientKey, shardQueueKeys(ctx.keyPrefix, id, s, ctx.shards)));
    this.shardFilter = new ShardFilter(this.cores, ctx.shardBy);
    this.head = new ShardHead(this.cores, (rid, s) => {
      this.memory.remember(rid, s);
      this.held.add(rid);
    });
    let transform: UniqueKeyTransform | undefined;
    const cores = this.cores;
    this.addPath = {
      get uniqueKeyTransform() {
        return transform;
      },
      set uniqueKeyTransform(t: UniqueKeyTransform | undefined) {
        transform = t;
        for (const core of cores) core.addPath.uniqueKeyTransform = t;
      },
    };
    this.workerStats =
      ctx.workerStats?.create({ connection: ctx.connection, keys: this.keys, clientKey, lockCount: () => this.held.size, clockOffsetMs: ctx.clockOffsetMs, lapses: () => this.cores.reduce((n, core) => n + (core.heartbeat?.lapses ?? 0), 0) }) ??
      NO_WORKER_STATS;
    if (ctx.startUrls) {
      const target = { cores: this.cores, shardBy: ctx.shardBy, rootTag: this.keys.tag, polite: ctx.politeness !== undefined, workerStats: this.workerStats, clockOffsetMs: ctx.clockOffsetMs, shardFilter: this.shardFilter };
      this.feed = new StartUrlFeed(new ShardedFeedDrain(target, ctx.startUrls), ctx.connection, ctx.startUrls.maxIdleSecs, ctx.clockOffsetMs);
    }
  }

  /** The start-URL feed (claimed batch by batch into the shards: src/shard/sharded-feed-drain.ts), or undefined. */
  private readonly feed?: StartUrlFeed;

  /** Shard 0's scripts: producer leases live there (a lease in any one shard keeps the queue open, since a call
   * that finds no work asks every shard). */
  get scripts(): QueueCore['scripts'] {
    return this.cores[0]!.scripts;
  }

  get producerLeases(): QueueContext['producerLeases'] {
    return this.ctx.producerLeases;
  }

  /** The uniqueKey transform, applied here before the shard is chosen (the shard is a function of the uniqueKey). */
  readonly addPath: QueueCoreApi['addPath'];

  /** The enqueue filter (src/shard/shard-filter.ts): whole in every shard's add script on one standalone Redis;
   * on a Cluster a store that splits runs part s in shard s's script; otherwise `withDedup` filters in front. */
  private readonly shardFilter: ShardFilter;

  readonly filter: QueueCoreApi['filter'] = {
    canAttach: (source) => this.shardFilter.canAttach(source),
    attach: (source, options) => this.shardFilter.attach(source, options),
    detach: () => this.shardFilter.detach(),
  };

  readonly locks: QueueCoreApi['locks'] = {
    prolong: (rid, lockSecs, forefront) => this.onShardOf(rid, (core) => core.locks.prolong(rid, lockSecs, forefront)),
    refresh: (rid, lockSecs) => this.onShardOf(rid, (core) => core.locks.refresh(rid, lockSecs)),
    release: async (rid, forefront) => {
      this.held.delete(rid);
      const s = this.memory.shardOf(rid);
      if (s !== undefined) return this.cores[s]!.locks.release(rid, forefront);
      await Promise.all(this.cores.map((core) => core.locks.release(rid, forefront)));
    },
    releaseAll: async () => {
      this.held.clear();
      const counts = await Promise.all(this.cores.map((core) => core.locks.releaseAll()));
      return counts.reduce((a, b) => a + b, 0);
    },
  };

  /** Runs `op` on the request's shard; for an id this client does not know, on each shard until one knows it. */
  private async onShardOf<T>(rid: string, op: (core: QueueCore) => Promise<T>): Promise<T> {
    const s = this.memory.shardOf(rid);
    if (s !== undefined) return op(this.cores[s]!);
    let notFound: unknown;
    for (const [i, core] of this.cores.entries()) {
      try {
        const result = await op(core);
        this.memory.remember(rid, i);
        return result;
      } catch (error) {
        if (!(error instanceof RequestNotFoundError)) throw error;
        notFound = error;
      }
    }
    throw notFound;
  }

  private shardOfRequest(request: { uniqueKey?: unknown }): number {
    return typeof request?.uniqueKey === 'string' ? shardOf(request.uniqueKey, this.cores.length, this.ctx.shardBy) : 0;
  }

  /** Checks the start-URL feed keys' types, creates every shard's metadata (the count was claimed by the caller) and
   * registers the queue once by its id. @throws {@link StartUrlFeedTypeError} for a feed key of another type */
  async ensureCreated(name: string | undefined): Promise<void> {
    await this.feed?.check();
    await Promise.all(this.cores.map((core) => core.ensureCreated(name)));
  }

  /** @returns the queue info with every counter summed over the shards, or undefined when no shard exists */
  async info(): Promise<RequestQueueInfo | undefined> {
    const infos = (await Promise.all(this.cores.map((core) => core.info()))).filter((i): i is RequestQueueInfo => i !== undefined);
    if (infos.length === 0) return undefined;
    const sum = (f: (i: RequestQueueInfo) => number | undefined) => infos.reduce((a, i) => a + (f(i) ?? 0), 0);
    return {
      ...infos[0]!,
      id: this.id,
      createdAt: new Date(Math.min(...infos.map((i) => i.createdAt.getTime()))),
      modifiedAt: new Date(Math.max(...infos.map((i) => i.modifiedAt.getTime()))),
      totalRequestCount: sum((i) => i.totalRequestCount),
      handledRequestCount: sum((i) => i.handledRequestCount),
      pendingRequestCount: sum((i) => i.pendingRequestCount),
      hadMultipleClients: infos.some((i) => i.hadMultipleClients),
    };
  }

  /** Deletes every shard, the root metadata (with the recorded count) and the index entry. */
  async drop(): Promise<void> {
    await Promise.all(this.cores.map((core) => core.drop()));
    await this.ctx.connection.run(() => this.ctx.connection.redis.del(this.keys.meta));
    await this.ctx.connection.run(() => unindexQueue(this.ctx.connection.redis, this.ctx.keyPrefix, this.id));
    this.shardsChecked = undefined;
  }

  private shardsChecked?: Promise<void>;

  /** Each shard's meta checked (created when missing) at this client's first call, all at once: a shard first used
   * later in the crawl must not create its meta anew after a Redis that lost its data (its scripts then answer
   * QueueMissingError instead). */
  private everyShardChecked(): Promise<void> {
    this.shardsChecked ??= Promise.all(this.cores.map((core) => core.ensureMeta())).then(
      () => undefined,
      (error: unknown) => {
        this.shardsChecked = undefined;
        throw error;
      },
    );
    return this.shardsChecked;
  }

  /** Unhandled requests, shard after shard (each shard in its queue order). @param limit - at most this many */
  async listHead(limit: number): Promise<QueueHead> {
    await this.everyShardChecked();
    const heads = await Promise.all(this.cores.map((core) => core.listHead(limit)));
    return {
      limit,
      queueModifiedAt: new Date(Math.max(...heads.map((h) => h.queueModifiedAt.getTime()))),
      hadMultipleClients: heads.some((h) => h.hadMultipleClients),
      items: heads.flatMap((h) => h.items).slice(0, limit),
    };
  }

  /**
   * Adds requests, each to the shard of its uniqueKey (one add path per shard, the shards in parallel). Every request
   * is checked before any shard is written (a split enqueue filter's part too), so a bad one means nothing is written.
   * @param requests - the requests
   * @param forefront - at the head (of their shard)
   * @throws {@link InvalidRequestError} when any request cannot be stored
   */
  async add(requests: readonly RequestSchema[], forefront: boolean): Promise<ProcessedRequest[]> {
    await this.everyShardChecked();
    const transform = this.addPath.uniqueKeyTransform;
    const keyed = requests.map((r) => (transform && r && typeof r === 'object' && !r.uniqueKey ? transform({ ...r }) : r));
    for (const r of keyed) encodeRequest(r);
    if (this.ctx.politeness) for (const r of keyed) checkPoliteShard(r);
    const groups = new Map<number, number[]>();
    keyed.forEach((r, i) => {
      const s = this.shardOfRequest(r);
      const group = groups.get(s);
      if (group) group.push(i);
      else groups.set(s, [i]);
    });
    await this.shardFilter.beforeAdd(new Map([...groups].map(([s, indexes]) => [s, indexes.map((i) => keyed[i]!)])));
    const out = new Array<ProcessedRequest>(keyed.length);
    await Promise.all(
      [...groups].map(async ([s, indexes]) => {
        const processed = await this.cores[s]!.add(
          indexes.map((i) => keyed[i]!),
          forefront,
        );
        processed.forEach((p, j) => {
          out[indexes[j]!] = p;
          this.memory.remember(p.requestId, s);
        });
      }),
    );
    this.workerStats.added(out.map((p) => (!p.wasAlreadyPresent ? ADD_ADDED : p.wasAlreadyHandled ? ADD_HANDLED : ADD_PRESENT)));
    return out;
  }

  /** One stored request, from the shard remembered for the id, else from whichever shard holds it. @param rid - id */
  async getRequest(rid: string): Promise<StoredRequest | undefined> {
    const s = this.memory.shardOf(rid);
    if (s !== undefined) return this.cores[s]!.getRequest(rid);
    const found = await Promise.all(this.cores.map((core) => core.getRequest(rid)));
    const i = found.findIndex((r) => r !== undefined);
    if (i < 0) return undefined;
    this.memory.remember(rid, i);
    return found[i];
  }

  /** Stores a request's new state in the shard of its uniqueKey (never throws for a lost lock). @param request - it
   * @param forefront - a reclaimed request goes to the head of its shard */
  update(request: UpdateRequestSchema, forefront: boolean): Promise<QueueOperationInfo> {
    this.held.delete(request.id);
    // Counted as the one-shard core counts: once answered, and not for a request another worker handled meanwhile.
    return this.cores[this.shardOfRequest(request)]!.update(request, forefront).then((info) => {
      if (!info.wasAlreadyHandled) this.workerStats.updated(request);
      return info;
    });
  }

  /** Deletes one request (from its shard; from every shard when this client does not know it). @param rid - id */
  async deleteRequest(rid: string): Promise<unknown> {
    this.held.delete(rid);
    const s = this.memory.shardOf(rid);
    this.memory.forget(rid);
    if (s !== undefined) return this.cores[s]!.deleteRequest(rid);
    const results = await Promise.all(this.cores.map((core) => core.deleteRequest(rid)));
    return results.some((r) => Number(r) === 1) ? 1 : 0;
  }

  /**
   * Locks up to `limit` requests from one shard (src/shard/shard-head.ts); when no shard has any available and a
   * start-URL feed is configured, claims one feed batch into the shards and locks again (and keeps
   * `queueHasLockedRequests` true while another worker's claimed batch is not yet added, and during `maxIdleSecs`).
   * @param limit - requests to lock (0 to 1000)
   * @param lockSecs - lock time in seconds (also the lease of a claimed feed batch)
   * @throws {@link InvalidOptionsError} for a bad limit or lock time
   */
  async lockHead(limit: number, lockSecs: number): Promise<LockHeadResult> {
    this.cores[0]!.locks.checkLockArgs(limit, lockSecs);
    await this.everyShardChecked();
    let result = await this.head.lockHead(limit, lockSecs);
    if (limit > 0 && this.feed) result = await this.feed.fill(result, () => this.head.lockHead(limit, lockSecs), lockSecs);
    this.workerStats.locked(result.items.length);
    return result;
  }

  /** Backs a host off in the shard that holds it (a host's requests and politeness state share one shard). */
  backOffHost(host: string, delaySecs: number): Promise<void> {
    return this.cores[shardOfKey(shardKeyOfHost(host), this.cores.length)]!.backOffHost(host, delaySecs);
  }

  /** Host key of a URL with this queue's hostKey. @param url - an absolute URL */
  hostKeyOf(url: string): string {
    return this.cores[0]!.hostKeyOf(url);
  }

  /** Politeness stats summed over the shards (each host is in one). @param top - hosts listed in `inFlight` */
  async politenessStats(top = DEFAULT_IN_FLIGHT_TOP): Promise<PolitenessStats> {
    return mergePolitenessStats(await Promise.all(this.cores.map((core) => core.politenessStats(top))), top);
  }
}

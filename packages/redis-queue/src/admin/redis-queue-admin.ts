import { requestIdOf } from '../core/request-codec.js';
import { ConnectionHandle, type RedisConnection } from '../core/connection.js';
import { numberOption } from '../options/option-ranges.js';
import { defaultStartUrlsKey, queueKeys, type QueueKeys } from '../core/keys.js';
import { unindexQueue } from '../core/queue-index.js';
import { QueueScripts } from '../core/queue-scripts.js';
import { unlinkHashTag } from './unlink-hash-tag.js';
import { DELETE_REPLY } from '../core/reply-codes.js';
import { readCrawlStats, type CrawlStats } from '../stats/read-crawl-stats.js';
import { readQueueMemory } from '../stats/read-queue-memory.js';
import { QueueMemoryCache } from '../stats/queue-memory-cache.js';
import { readHandledStoreInfo } from './handled-store-info.js';
import { readWorkers, type WorkerInfo } from '../stats/read-worker-stats.js';
import { takeOverScrapyRequests, type TakeOverScrapyRequestsOptions, type TakeOverScrapyRequestsResult } from '../takeover/index.js';
import { readProducerLeases } from '../lease/read-producer-leases.js';
import { DEFAULT_IN_FLIGHT_TOP, readPolitenessStats, type PolitenessStats } from '../politeness/politeness-stats.js';
import { mergePolitenessStats } from '../shard/shard-politeness.js';
import { openProducerLease, type ProducerLease, type ProducerLeaseOptions } from '../lease/producer-lease.js';
import { listFailed, requeueFailed, type FailedRequest, type ListFailedOptions, type RequeueFailedOptions } from './failed-requests.js';
import { AdminShards } from '../shard/admin-shards.js';
import { takeOverIntoShards } from '../shard/take-over-into-shards.js';
import { deleteDeadLetters, readDeadLetters } from './read-dead-letters.js';
import { planDeadLetterRequeue, runDeadLetterRequeue } from './requeue-dead-letters.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { shardOf } from '../shard/shard-of.js';
import { mergeDeadLetters, mergeFailed, mergeLockExpiries, mergeMemory, sumCounts, sumStats } from './shard-admin-parts.js';

import type { RedisQueueAdminOptions, RedisQueueStats, RedisQueueStorage, DeadLetter, RequeueDeadLettersOptions } from './admin-types.js';
import { checkKnownOptions } from '../options/known-options.js';
import { metaNumber } from '../core/meta-number.js';
import { redisTimeMs } from '../core/redis-time-ms.js';

export type { RedisQueueAdminOptions, RedisQueueStats, RedisQueueStorage, DeadLetter, RequeueDeadLettersOptions } from './admin-types.js';

/**
 * Operator tools for one shared Redis request queue: counters, explicit purge and drop, dead letters.
 * None of these run on a worker's hot path.
 *
 * @example
 * ```ts
 * const admin = new RedisQueueAdmin({ redis: 'redis://127.0.0.1:6379', name: 'my-crawl' });
 * console.log(await admin.stats()); // { total, pending, locked, handled, deadLetters }
 * await admin.close();
 * ```
 */
export class RedisQueueAdmin {
  /** The queue's keys. */
  readonly keys: QueueKeys;
  /** The connection. */
  readonly redis: RedisConnection;
  private readonly connection: ConnectionHandle;
  private readonly name: string;
  private readonly keyPrefix: string;
  private readonly startUrlsKey: string;
  private readonly scripts: QueueScripts;
  private readonly leases = new Set<ProducerLease>();
  /** One admin per shard of a sharded queue (src/shard/admin-shards.ts). */
  private readonly shardAdmins: AdminShards<RedisQueueAdmin>;
  private readonly memory: QueueMemoryCache;
  private readonly hostKey: ((url: string) => string) | undefined;

  /**
   * @param options - connection, key prefix, queue name
   * @param keys - internal: the keys of one shard (the admin of a sharded queue makes one sub-admin per shard)
   * @throws {@link InvalidOptionsError} for a bad name, prefix or URL
   */
  constructor(options: RedisQueueAdminOptions, keys?: QueueKeys) {
    checkKnownOptions<RedisQueueAdminOptions>('RedisQueueAdmin options', options, {
      redis: true, redisOptions: true, connectTimeoutSecs: true, reconnectTimeoutSecs: true, keyPrefix: true, name: true, startUrlsKey: true, hostKey: true,
    });
    this.keyPrefix = options.keyPrefix ?? 'crawlee';
    this.name = options.name;
    this.keys = keys ?? queueKeys(this.keyPrefix, options.name);
    this.startUrlsKey = options.startUrlsKey ?? defaultStartUrlsKey(options.name);
    numberOption('connectTimeoutSecs', options.connectTimeoutSecs);
    if (options.hostKey !== undefined && typeof options.hostKey !== 'function') throw new InvalidOptionsError('hostKey must be a function (url) => string, the workers\' politeness.hostKey');
    this.hostKey = options.hostKey;
    const reconnectTimeoutSecs = numberOption('reconnectTimeoutSecs', options.reconnectTimeoutSecs);
    this.connection = new ConnectionHandle(options.redis, options.redisOptions, options.connectTimeoutSecs, 0, reconnectTimeoutSecs, this.keyPrefix);
    this.redis = this.connection.redis;
    this.scripts = new QueueScripts(this.connection, this.keys, options.name);
    const isRoot = this.keys.tag === queueKeys(this.keyPrefix, this.name).tag;
    this.shardAdmins = new AdminShards(this.connection, this.keyPrefix, this.name, isRoot, (k) => new RedisQueueAdmin({ ...options, redis: this.redis }, k));
    this.memory = new QueueMemoryCache(this.redis, this.keys, (read) => this.connection.run(read));
  }

  /**
   * When the queue's locks expire, on Redis time: how many requests are locked, and in how many seconds the first and
   * the last lock run out (a killed worker's requests come back then). Reads both ends of the lock sorted set: O(log N).
   *
   * @returns `{ locked, firstExpiresInSecs, lastExpiresInSecs }`; the two times are undefined when nothing is locked
   */
  async lockExpiries(): Promise<{ locked: number; firstExpiresInSecs?: number; lastExpiresInSecs?: number }> {
    const parts = await this.shardAdmins.over((p) => p.lockExpiries());
    if (parts) return mergeLockExpiries(parts);
    const [count, first, last, time] = await this.connection.run(() =>
      Promise.all([
        this.redis.zcard(this.keys.locks),
        this.redis.zrange(this.keys.locks, '0', '0', 'WITHSCORES'),
        this.redis.zrange(this.keys.locks, '-1', '-1', 'WITHSCORES'),
        this.redis.time(),
      ]),
    );
    const nowMs = redisTimeMs(time as [string | number, string | number]);
    const inSecs = (pair: string[]) => (pair.length < 2 ? undefined : Math.max(0, (Number(pair[1]) - nowMs) / 1000));
    return { locked: count, firstExpiresInSecs: inSecs(first), lastExpiresInSecs: inSecs(last) };
  }

  /**
   * The queue's politeness state (the same as `queue.politenessStats()`), for the CLI and the dashboard.
   * @param options - `top`: hosts listed in `inFlight` (1..1000, default 20)
   * @returns `enabled: false` and zeros for a queue created without politeness
   */
  async politenessStats({ top = DEFAULT_IN_FLIGHT_TOP }: { top?: number } = {}): Promise<PolitenessStats> {
    const parts = await this.shardAdmins.over((p) => p.politenessStats({ top }));
    return parts ? mergePolitenessStats(parts, top) : readPolitenessStats(this.scripts, top);
  }

  /**
   * @returns the queue's counters, read in one atomic step. Never negative, and `handled` never above `total`
   *   (counters a third party edited are shown clamped: `pending` and `handled` at 0, `total` at least
   *   pending + handled), so the CLI, metrics and dashboard never show a negative count or over 100 % handled.
   *   Memory and the handled store: {@link RedisQueueAdmin.storage}.
   */
  async stats(): Promise<RedisQueueStats> {
    const parts = await this.shardAdmins.over((p) => p.stats());
    if (parts) return sumStats(parts);
    const [, total, pending, handled, locked, deadLetters] = ((await this.scripts.run('queueStats', ['0'], { extraKeys: [this.keys.live] })) as unknown[]).map(Number);
    const p = Math.max(0, pending!);
    const h = Math.max(0, handled!);
    return { total: Math.max(total!, p + h), pending: p, locked: Math.max(0, locked!), handled: h, deadLetters: deadLetters! };
  }

  /**
   * Each shard's counters, for spotting a skewed shard (the counters of one shard are one atomic read; the shards
   * are read side by side). {@link RedisQueueAdmin.stats} is their sum.
   * @returns one entry per shard, entry i for shard i; one entry (the queue's counters) for an unsharded queue
   */
  async shardStats(): Promise<RedisQueueStats[]> {
    return (await this.shardAdmins.over((p) => p.stats())) ?? [await this.stats()];
  }

  /**
   * What the queue costs and keeps: its Redis memory (measured at most 10 s ago: fixed keys plus a sample of the
   * index buckets, O(keys + 16)) and its handled store (`handledRequests` mode; in 'bits' the filter's sizing and its
   * estimated false-positive rate at the current handled count). Separate from {@link RedisQueueAdmin.stats}, which
   * stays one atomic read of the counters.
   * @returns memory and handled store
   */
  async storage(): Promise<RedisQueueStorage> {
    const parts = await this.shardAdmins.over((p) => p.storage());
    // Each shard has its own handled store of the queue's mode; memory adds up.
    if (parts) return { ...parts[0]!, memoryBytes: parts.every((x) => x.memoryBytes !== undefined) ? parts.reduce((n, x) => n + x.memoryBytes!, 0) : undefined };
    const [memory, handled] = await Promise.all([this.memory.read().catch(() => undefined), this.connection.run(() => this.redis.hget(this.keys.meta, 'handled'))]);
    const store = await this.connection.run(() => readHandledStoreInfo(this.redis, this.keys, Math.max(0, metaNumber(`request queue "${this.name}" storage`, this.keys.meta, 'handled', handled, 0))));
    return { memoryBytes: memory?.bytes, ...store };
  }

  /** Removes every request, lock, dead letter and failed entry, resets the counters; the queue and live leases stay.
   * @returns the number of requests removed */
  async purge(): Promise<number> {
    const parts = await this.shardAdmins.over((p) => p.purge());
    if (parts) return parts.reduce((a, n) => a + n, 0);
    return Number(await this.scripts.run('purgeQueue', ['0', '0'], { extraKeys: [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.suspects] }));
  }

  /** Deletes the queue entirely (requests, dead letters, metadata). The start-URL feed list is left alone. */
  async drop(): Promise<void> {
    if (await this.shardAdmins.over((p) => p.drop())) await this.connection.run(() => this.redis.del(this.keys.meta));
    await this.scripts.run('purgeQueue', ['0', '1'], { extraKeys: this.optionalKeys() });
    await this.connection.run(() => unindexQueue(this.redis, this.keyPrefix, this.name));
  }

  /**
   * Lists dead letters (admin use: reads the whole dead-letter hash).
   *
   * @returns every dead letter, oldest first
   */
  async listDeadLetters(): Promise<DeadLetter[]> {
    const parts = await this.shardAdmins.over((p) => p.listDeadLetters());
    if (parts) return mergeDeadLetters(parts);
    return readDeadLetters(this.connection, this.keys);
  }

  /**
   * Puts dead letters back: queue entries into the queue (at the tail; on a polite queue into their host's queue,
   * the host computed from the request's URL with `hostKey`, so the host's delay holds for them), feed items at the
   * head of the feed list. Each letter moves in one atomic step: a crash part-way leaves every letter either still
   * dead or requeued once. On a sharded queue each goes back into its own shard. Every letter is checked before the
   * first one moves.
   *
   * @param options - which ids, and an optional repair function
   * @returns how many were requeued, and how many were skipped (repair returned undefined, or already gone)
   * @throws {@link InvalidRequestError} (nothing requeued) when `repair` returns a request that cannot be stored or
   *   (sharded queue) that belongs in another shard, or on a polite queue when a letter holds no readable request (its
   *   host is unknown: pass `repair`, or leave it out with `ids`) or `hostKey` fails for its URL
   */
  async requeueDeadLetters(options: RequeueDeadLettersOptions = {}): Promise<{ requeued: number; skipped: number }> {
    const sharded = await this.shardAdmins.layout();
    if (sharded) {
      // Every shard's letters are checked first, then each goes back into its own shard.
      const { parts, shardBy } = sharded;
      const plans = await Promise.all(parts.map((p, i) => p.planRequeue(options, (r) => {
        if (shardOf(r.uniqueKey, parts.length, shardBy) !== i) {
          throw new InvalidRequestError(`repair returned uniqueKey ${JSON.stringify(r.uniqueKey.slice(0, 80))}, which belongs in another shard of request queue "${this.name}" than its dead letter; keep the uniqueKey (or its host with shardBy 'host'), or add it as a new request`);
        }
      })));
      const results = await Promise.all(parts.map((p, i) => runDeadLetterRequeue(p.scripts, p.startUrlsKey, plans[i]!)));
      return results.reduce((a, r) => ({ requeued: a.requeued + r.requeued, skipped: a.skipped + r.skipped }));
    }
    return runDeadLetterRequeue(this.scripts, this.startUrlsKey, await this.planRequeue(options));
  }

  /** The checked requeue of this queue's (or shard's) dead letters, nothing written yet. */
  private async planRequeue(options: RequeueDeadLettersOptions, checkRequest?: (request: { url: string; uniqueKey: string }) => void) {
    const wanted = options.ids ? new Set(options.ids) : undefined;
    const letters = (await readDeadLetters(this.connection, this.keys)).filter((l) => !wanted || wanted.has(l.id));
    return planDeadLetterRequeue(this.scripts, letters, options.repair, this.hostKey, checkRequest);
  }

  // ---- Issue 14 (operate a fleet): worker stats, crawl counters, memory, and what the CLI needs. ----

  /**
   * The workers that published stats on this queue (see the `workerStats` option of `RedisStorageClient`): alive,
   * stopped (closed cleanly) and dead (silent longer than their TTL) ones. Ids of workers dead for longer than
   * `retentionSecs` are pruned on this read. O(workers).
   *
   * @param options - `retentionSecs`: how long a dead worker stays listed, 0 to 2,592,000 (default 600)
   * @throws {@link InvalidOptionsError} for a retentionSecs outside that range
   * @returns the workers, alive first, then newest first
   */
  async workers(options: { retentionSecs?: number } = {}): Promise<WorkerInfo[]> {
    const retentionMs = numberOption('retentionSecs', options.retentionSecs) * 1000;
    return this.connection.run(() => readWorkers(this.redis, this.keys, retentionMs));
  }

  /** @returns crawl-wide counters the workers published (handled, failed, retried, alreadyPresent) and the
   * enqueue filter's `filtered` counter when a worker reported one */
  async crawlStats(): Promise<CrawlStats> {
    return this.connection.run(() => readCrawlStats(this.redis, this.keys));
  }

  /** @returns Redis memory of the queue's keys in bytes, read now (`readQueueMemory`: fixed keys plus a sample of
   * the index buckets, extrapolated: O(keys + 16)) */
  async memoryUsage(): Promise<{ bytes: number; byKey: Record<string, number> }> {
    const parts = await this.shardAdmins.over((p) => p.memoryUsage());
    if (parts) return mergeMemory(parts);
    return this.connection.run(() => readQueueMemory(this.redis, this.keys));
  }

  /**
   * Deletes dead letters for good.
   *
   * @param ids - only these dead-letter ids (default: all)
   * @returns how many were deleted
   */
  deleteDeadLetters(ids?: string[]): Promise<number> {
    return deleteDeadLetters(this.connection, this.keys, ids);
  }

  /**
   * Removes requests by uniqueKey (pending, locked, handled or failed; the counters move), so the same uniqueKey can
   * be added again. A dedup store in front of the queue (crawlee-bloom-dedup) still remembers them: forget them there
   * too (`SetDedupStore.forget`, or `crawlee-redis forget --dedup-key`).
   *
   * @param uniqueKeys - the uniqueKeys
   * @returns the uniqueKeys removed, the ones the queue did not hold, and (`handledRequests: 'bits'`) the handled
   *   ones it cannot forget: their Bloom bits are shared with other requests
   */
  async forget(uniqueKeys: string[]): Promise<{ forgotten: string[]; missing: string[]; keptAsBits: string[] }> {
    const sharded = await this.shardAdmins.layout();
    if (sharded) {
      const results = await Promise.all(uniqueKeys.map((k) => sharded.parts[shardOf(k, sharded.parts.length, sharded.shardBy)]!.forget([k])));
      return { forgotten: results.flatMap((r) => r.forgotten), missing: results.flatMap((r) => r.missing), keptAsBits: results.flatMap((r) => r.keptAsBits) };
    }
    const out = { forgotten: [] as string[], missing: [] as string[], keptAsBits: [] as string[] };
    for (const uniqueKey of uniqueKeys) {
      const code = Number(await this.scripts.run('deleteRequest', [requestIdOf(uniqueKey), '0'], { extraKeys: [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.failedKept] }));
      (code === DELETE_REPLY.DELETED ? out.forgotten : code === DELETE_REPLY.KEPT_AS_BITS ? out.keptAsBits : out.missing).push(uniqueKey);
    }
    return out;
  }

  /**
   * Drops the queue ({@link RedisQueueAdmin.drop}) and then deletes every other key with the queue's hash tag:
   * worker records, crawl counters, dedup keys given the queue's tag. Finds them with `SCAN MATCH` (on a Cluster,
   * on every master): an admin action that reads the key space, never for a hot path.
   *
   * @returns the number of keys deleted besides the queue's own
   */
  async dropHashTag(): Promise<number> {
    // Each shard's tag, then the root's (worker stats and the recorded layout live under the root tag).
    const inShards = await this.shardAdmins.over((p) => p.dropHashTag());
    if (inShards) await this.connection.run(() => this.redis.del(this.keys.meta));
    else await this.drop();
    const deleted = await unlinkHashTag(this.connection, this.keys.tag);
    return deleted + (inShards ?? []).reduce((a, n) => a + n, 0);
  }

  /**
   * Takes over a scrapy-redis frontier: moves the pending requests of `<spider>:requests` (pickled or JSON request
   * dicts, in a sorted set or a list) into this queue, in batches, each batch atomic on one Redis. Run it after
   * stopping the Scrapy fleet (scrapy-redis loses the requests its workers popped when they die). The requests keep
   * Scrapy's pop order (highest priority first) and go to the queue's tail (on a sharded queue: each to the tail of
   * the shard of its uniqueKey, src/shard/take-over-into-shards.ts); Scrapy's fields go to
   * `userData.scrapy`, its callback name to `userData.label`. Entries that cannot be read go to the dead letters
   * with the reason. Killed at any point and run again, it loses nothing and stores nothing twice. The enqueue filter
   * is bypassed (Scrapy's dupefilter already holds these requests' fingerprints). On a polite queue each request goes
   * into its host's queue (host from its URL with `hostKey`), so the queue's per-host delay holds for them.
   *
   * @param options - the frontier key, serializer, queue class, batch size, uniqueKey function
   * @returns what was moved, already present, dead-lettered, gone
   * @throws {@link InvalidOptionsError} for a bad option or a key of another Redis type (nothing moved)
   * @throws {@link TakeoverSourceChangedError} when a list frontier keeps changing (Scrapy still running)
   */
  async takeOverScrapyRequests(options: TakeOverScrapyRequestsOptions): Promise<TakeOverScrapyRequestsResult> {
    const sharded = await this.shardAdmins.layout();
    if (sharded) return takeOverIntoShards(sharded.parts.map((part) => part.scripts), sharded.shardBy, options, this.hostKey);
    return takeOverScrapyRequests(this.scripts, options, this.hostKey);
  }


  /**
   * Takes a producer lease: while it is alive no worker finishes (`listAndLockHead` answers `queueHasLockedRequests`),
   * so a producer holding no request lock (a seeding script, a sitemap reader) can add slowly. Renewed by an unref'd
   * timer; released by `release()` or {@link RedisQueueAdmin.close}; expires `leaseSecs` after its last renewal
   * (Redis time) when the producer dies.
   * @param options - `leaseSecs` (1..3600, default 30), `renewEverySecs` (default leaseSecs / 3), `id`
   * @returns the lease, alive in Redis
   * @throws {@link InvalidOptionsError} for a lease time or renewal interval out of range (nothing written)
   */
  async openProducerLease(options: ProducerLeaseOptions = {}): Promise<ProducerLease> {
    const sharded = await this.shardAdmins.layout(); // a sharded queue's leases live in shard 0 (every idle call asks it)
    if (sharded) return sharded.parts[0]!.openProducerLease(options);
    const lease = await openProducerLease(this.scripts, options, (l) => this.leases.delete(l));
    this.leases.add(lease);
    return lease;
  }

  /** @returns the producer leases alive now (Redis time), soonest expiry first; O(log N) */
  async producerLeases(): Promise<Array<{ id: string; expiresAt: Date }>> {
    const sharded = await this.shardAdmins.layout();
    return sharded ? sharded.parts[0]!.producerLeases() : readProducerLeases(this.connection, this.keys);
  }

  /**
   * Requests that failed for good, from the failed index (written atomically with the handled mark): O(log N + limit).
   * @param options - `limit` (1..10,000, default 100), `offset`
   * @returns oldest failure first
   * @throws {@link InvalidOptionsError} for a limit or offset out of range
   */
  async failed(options: ListFailedOptions = {}): Promise<FailedRequest[]> {
    const parts = await this.shardAdmins.over((p) => p.failed({ ...options, offset: 0, limit: Math.min(10_000, (options.offset ?? 0) + (options.limit ?? 100)) }));
    if (parts) return mergeFailed(parts, options.offset ?? 0, options.limit ?? 100);
    return listFailed(this.scripts, options);
  }

  /** @returns how many requests are in the failed index (O(1)) */
  async failedCount(): Promise<number> {
    const parts = await this.shardAdmins.over((p) => p.failedCount());
    return parts ? parts.reduce((a, n) => a + n, 0) : this.connection.run(() => this.redis.zcard(this.keys.failed));
  }

  /**
   * Puts failed requests back into the queue: pending at the tail (on a polite queue in their host's queue, the host
   * computed from the URL with `hostKey`, so the host's delay holds), `retryCount` 0, `handledAt` removed,
   * `errorMessages` kept unless `clearErrorMessages`. Counters move exactly (handled to pending; a forgotten one
   * comes back into total and pending). Workers running on the queue pick them up; a finished fleet needs a new run.
   * @param options - `ids` (default: all), `clearErrorMessages`
   * @returns counts: requeued, alreadyQueued (re-added since), skipped (stored JSON not a request), missing
   * @throws {@link InvalidRequestError} on a polite queue when `hostKey` fails for a request's URL (that page of 200
   *   is not requeued; the pages before it are, and a second call after a fix goes on from there)
   */
  async requeueFailed(options: RequeueFailedOptions = {}): Promise<{ requeued: number; alreadyQueued: number; skipped: number; missing: number }> {
    const parts = await this.shardAdmins.over((p) => p.requeueFailed(options));
    return parts ? sumCounts(parts) : requeueFailed(this.scripts, options, this.hostKey);
  }

  private optionalKeys = (): string[] => [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.suspects, this.keys.leases];

  /** Releases the producer leases this admin opened, then closes the connection if this admin created it from a URL. */
  async close(): Promise<void> {
    await Promise.all([...this.leases].map((lease) => lease.release().catch(() => undefined)));
    await this.shardAdmins.closeFound((p) => p.close());
    await this.connection.close();
  }
}

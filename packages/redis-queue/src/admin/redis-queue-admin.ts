import { encodeRequest, requestIdOf } from '../queue/request-codec.js';
import { storedFields } from '../queue/record-format.js';
import { ConnectionHandle, isCluster, type RedisConnection } from '../redis/connection.js';
import { numberOption } from '../options/option-ranges.js';
import { defaultStartUrlsKey, queueIndexKey, queueKeys, type QueueKeys } from '../redis/keys.js';
import { QueueScripts } from '../queue/queue-scripts.js';
import { REQUEUED } from '../queue/reply-codes.js';
import { hashTagOf } from '@crawlee-distributed/redis-kit';
import { readCrawlStats, readQueueMemory, type CrawlStats } from '../stats/read-crawl-stats.js';
import { readWorkers, type WorkerInfo } from '../stats/read-worker-stats.js';
import { takeOverScrapyRequests, type TakeOverScrapyRequestsOptions, type TakeOverScrapyRequestsResult } from '../takeover/index.js';
import { readProducerLeases } from '../lease/read-producer-leases.js';
import { openProducerLease, type ProducerLease, type ProducerLeaseOptions } from '../lease/producer-lease.js';
import { listFailed, requeueFailed, type FailedRequest, type ListFailedOptions, type RequeueFailedOptions } from './failed-requests.js';

import type { RedisQueueAdminOptions, RedisQueueStats, DeadLetter, RequeueDeadLettersOptions } from './admin-types.js';

export type { RedisQueueAdminOptions, RedisQueueStats, DeadLetter, RequeueDeadLettersOptions } from './admin-types.js';

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

  /**
   * @param options - connection, key prefix, queue name
   * @throws {@link InvalidOptionsError} for a bad name, prefix or URL
   */
  constructor(options: RedisQueueAdminOptions) {
    this.keyPrefix = options.keyPrefix ?? 'crawlee';
    this.name = options.name;
    this.keys = queueKeys(this.keyPrefix, options.name);
    this.startUrlsKey = options.startUrlsKey ?? defaultStartUrlsKey(options.name);
    numberOption('connectTimeoutSecs', options.connectTimeoutSecs);
    this.connection = new ConnectionHandle(options.redis, options.redisOptions, options.connectTimeoutSecs);
    this.redis = this.connection.redis;
    this.scripts = new QueueScripts(this.connection, this.keys, options.name);
  }

  /**
   * When the queue's locks expire, on Redis time: how many requests are locked, and in how many seconds the first and
   * the last lock run out (a killed worker's requests come back then). Reads both ends of the lock sorted set: O(log N).
   *
   * @returns `{ locked, firstExpiresInSecs, lastExpiresInSecs }`; the two times are undefined when nothing is locked
   */
  async lockExpiries(): Promise<{ locked: number; firstExpiresInSecs?: number; lastExpiresInSecs?: number }> {
    const [count, first, last, [secs, micros]] = await this.connection.run(() =>
      Promise.all([
        this.redis.zcard(this.keys.locks),
        this.redis.zrange(this.keys.locks, '0', '0', 'WITHSCORES'),
        this.redis.zrange(this.keys.locks, '-1', '-1', 'WITHSCORES'),
        this.redis.time(),
      ]),
    );
    const nowMs = Number(secs) * 1000 + Math.floor(Number(micros) / 1000);
    const inSecs = (pair: string[]) => (pair.length < 2 ? undefined : Math.max(0, (Number(pair[1]) - nowMs) / 1000));
    return { locked: count, firstExpiresInSecs: inSecs(first), lastExpiresInSecs: inSecs(last) };
  }

  /**
   * @returns the queue's counters, read in one atomic step. Never negative, and `handled` never above `total`
   *   (counters a third party edited are shown clamped: `pending` and `handled` at 0, `total` at least
   *   pending + handled), so the CLI, metrics and dashboard never show a negative count or over 100 % handled.
   */
  async stats(): Promise<RedisQueueStats> {
    const [, total, pending, handled, locked, deadLetters] = ((await this.scripts.run('queueStats', ['0'])) as unknown[]).map(Number);
    const p = Math.max(0, pending!);
    const h = Math.max(0, handled!);
    return { total: Math.max(total!, p + h), pending: p, locked: Math.max(0, locked!), handled: h, deadLetters: deadLetters! };
  }

  /** Removes every request, lock, dead letter and failed entry, resets the counters; the queue and live leases stay.
   * @returns the number of requests removed */
  async purge(): Promise<number> {
    return Number(await this.scripts.run('purgeQueue', ['0', '0'], { extraKeys: [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.suspects, this.keys.legacyPending, this.keys.legacyAvail] }));
  }

  /** Deletes the queue entirely (requests, dead letters, metadata). The start-URL feed list is left alone. */
  async drop(): Promise<void> {
    await this.scripts.run('purgeQueue', ['0', '1'], { extraKeys: this.optionalKeys() });
    await this.connection.run(() => this.redis.srem(queueIndexKey(this.keyPrefix), this.name));
  }

  /**
   * Lists dead letters (admin use: reads the whole dead-letter hash).
   *
   * @returns every dead letter, oldest first
   */
  async listDeadLetters(): Promise<DeadLetter[]> {
    const [raws, infos] = await this.connection.run(() =>
      Promise.all([this.redis.hgetallBuffer(this.keys.dead), this.redis.hgetall(this.keys.deadInfo)]),
    );
    const letters: DeadLetter[] = [];
    for (const [id, raw] of Object.entries(raws)) {
      let info: { reason?: string; source?: string; at?: number; stalls?: number } = {};
      try {
        info = JSON.parse(infos[id] ?? '{}') as typeof info;
      } catch {
        info = { reason: 'dead-letter info unreadable' };
      }
      letters.push({
        id,
        raw,
        reason: info.reason ?? 'unknown',
        source: info.source === 'feed' || info.source === 'takeover' ? info.source : 'queue',
        at: new Date(info.at ?? 0),
        ...(typeof info.stalls === 'number' ? { stalls: info.stalls } : {}),
      });
    }
    return letters.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
  }

  /**
   * Puts dead letters back: queue entries into the queue (at the tail), feed items at the head of the feed list.
   *
   * @param options - which ids, and an optional repair function
   * @returns how many were requeued, and how many were skipped (repair returned undefined, or already gone)
   * @throws {@link InvalidRequestError} when `repair` returns a request that cannot be stored
   */
  async requeueDeadLetters(options: RequeueDeadLettersOptions = {}): Promise<{ requeued: number; skipped: number }> {
    const wanted = options.ids ? new Set(options.ids) : undefined;
    const letters = (await this.listDeadLetters()).filter((l) => !wanted || wanted.has(l.id));
    let requeued = 0;
    let skipped = 0;
    for (const letter of letters) {
      let bytes: Buffer | string = '';
      // A feed item goes back to the feed as a JSON item (the feed's format), not as a queue record.
      let feedItem = '';
      let id = letter.id;
      if (options.repair) {
        const repaired = options.repair(letter);
        if (!repaired) {
          skipped++;
          continue;
        }
        const encoded = encodeRequest(repaired);
        bytes = encoded.record;
        id = encoded.id;
        feedItem = JSON.stringify({ ...storedFields(encoded.record), id });
      }
      if (letter.source === 'feed') {
        // The feed list is on another key (maybe another Cluster slot): push first, then forget the letter.
        await this.connection.run(() => this.redis.lpush(this.startUrlsKey, feedItem === '' ? letter.raw : feedItem));
        await this.connection.run(() => this.redis.hdel(this.keys.dead, letter.id));
        await this.connection.run(() => this.redis.hdel(this.keys.deadInfo, letter.id));
        requeued++;
        continue;
      }
      if (id.startsWith('feed-')) id = requestIdOf(id);
      const code = Number(await this.scripts.run('requeueDeadLetter', [letter.id, id, bytes, '0'], { extraKeys: [this.keys.stalls] }));
      if (code === REQUEUED) requeued++;
      else skipped++;
    }
    return { requeued, skipped };
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

  /** @returns Redis memory of the queue's keys in bytes (`MEMORY USAGE ... SAMPLES 5` per key: O(keys)) */
  async memoryUsage(): Promise<{ bytes: number; byKey: Record<string, number> }> {
    return this.connection.run(() => readQueueMemory(this.redis, this.keys));
  }

  /**
   * Deletes dead letters for good.
   *
   * @param ids - only these dead-letter ids (default: all)
   * @returns how many were deleted
   */
  async deleteDeadLetters(ids?: string[]): Promise<number> {
    const targets = ids ?? (await this.connection.run(() => this.redis.hkeys(this.keys.dead)));
    let deleted = 0;
    for (let start = 0; start < targets.length; start += 500) {
      const chunk = targets.slice(start, start + 500);
      deleted += await this.connection.run(() => this.redis.hdel(this.keys.dead, ...chunk));
      await this.connection.run(() => this.redis.hdel(this.keys.deadInfo, ...chunk));
    }
    return deleted;
  }

  /**
   * Removes requests by uniqueKey (pending, locked, handled or failed; the counters move), so the same uniqueKey can
   * be added again. A dedup store in front of the queue (crawlee-bloom-dedup) still remembers them: forget them there
   * too (`SetDedupStore.forget`, or `crawlee-redis forget --dedup-key`).
   *
   * @param uniqueKeys - the uniqueKeys
   * @returns the uniqueKeys removed and the ones the queue did not hold
   */
  async forget(uniqueKeys: string[]): Promise<{ forgotten: string[]; missing: string[] }> {
    const forgotten: string[] = [];
    const missing: string[] = [];
    for (const uniqueKey of uniqueKeys) {
      const found = Number(await this.scripts.run('deleteRequest', [requestIdOf(uniqueKey), '0'], { extraKeys: [this.keys.stalls, this.keys.failed, this.keys.failedData] })) === 1;
      (found ? forgotten : missing).push(uniqueKey);
    }
    return { forgotten, missing };
  }

  /**
   * Drops the queue ({@link RedisQueueAdmin.drop}) and then deletes every other key with the queue's hash tag:
   * worker records, crawl counters, dedup keys given the queue's tag. Finds them with `SCAN MATCH` (on a Cluster,
   * on every master): an admin action that reads the key space, never for a hot path.
   *
   * @returns the number of keys deleted besides the queue's own
   */
  async dropHashTag(): Promise<number> {
    await this.drop();
    const tag = this.keys.tag.slice(1, -1);
    const pattern = `*${this.keys.tag.replace(/[*?[\]\\]/g, '\\$&')}*`;
    const nodes = isCluster(this.redis) ? this.redis.nodes('master') : [this.redis];
    let deleted = 0;
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, found] = await this.connection.run(() => node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
        cursor = next;
        const mine = found.filter((key) => hashTagOf(key) === tag);
        if (mine.length > 0) deleted += await this.connection.run(() => node.unlink(...mine));
      } while (cursor !== '0');
    }
    return deleted;
  }

  /**
   * Takes over a scrapy-redis frontier: moves the pending requests of `<spider>:requests` (pickled or JSON request
   * dicts, in a sorted set or a list) into this queue, in batches, each batch atomic on one Redis. Run it after
   * stopping the Scrapy fleet (scrapy-redis loses the requests its workers popped when they die). The requests keep
   * Scrapy's pop order (highest priority first) and go to the queue's tail; Scrapy's fields go to
   * `userData.scrapy`, its callback name to `userData.label`. Entries that cannot be read go to the dead letters
   * with the reason. Killed at any point and run again, it loses nothing and stores nothing twice. The enqueue filter
   * is bypassed (Scrapy's dupefilter already holds these requests' fingerprints).
   *
   * @param options - the frontier key, serializer, queue class, batch size, uniqueKey function
   * @returns what was moved, already present, dead-lettered, gone
   * @throws {@link InvalidOptionsError} for a bad option or a key of another Redis type (nothing moved)
   * @throws {@link TakeoverSourceChangedError} when a list frontier keeps changing (Scrapy still running)
   */
  async takeOverScrapyRequests(options: TakeOverScrapyRequestsOptions): Promise<TakeOverScrapyRequestsResult> {
    return takeOverScrapyRequests(this.scripts, options);
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
    const lease = await openProducerLease(this.scripts, options, (l) => this.leases.delete(l));
    this.leases.add(lease);
    return lease;
  }

  /** @returns the producer leases alive now (Redis time), soonest expiry first; O(log N) */
  producerLeases(): Promise<Array<{ id: string; expiresAt: Date }>> {
    return readProducerLeases(this.connection, this.keys);
  }

  /**
   * Requests that failed for good, from the failed index (written atomically with the handled mark): O(log N + limit).
   * @param options - `limit` (1..10,000, default 100), `offset`
   * @returns oldest failure first
   * @throws {@link InvalidOptionsError} for a limit or offset out of range
   */
  failed(options: ListFailedOptions = {}): Promise<FailedRequest[]> {
    return listFailed(this.scripts, options);
  }

  /** @returns how many requests are in the failed index (O(1)) */
  failedCount = (): Promise<number> => this.connection.run(() => this.redis.zcard(this.keys.failed));

  /**
   * Puts failed requests back into the queue: pending at the tail, `retryCount` 0, `handledAt` removed,
   * `errorMessages` kept unless `clearErrorMessages`. Counters move exactly (handled to pending; a forgotten one
   * comes back into total and pending). Workers running on the queue pick them up; a finished fleet needs a new run.
   * @param options - `ids` (default: all), `clearErrorMessages`
   * @returns counts: requeued, alreadyQueued (re-added since), skipped (stored JSON not a request), missing
   */
  requeueFailed(options: RequeueFailedOptions = {}): Promise<{ requeued: number; alreadyQueued: number; skipped: number; missing: number }> {
    return requeueFailed(this.scripts, options);
  }

  private optionalKeys = (): string[] => [this.keys.stalls, this.keys.failed, this.keys.failedData, this.keys.suspects, this.keys.leases, this.keys.legacyPending, this.keys.legacyAvail];

  /** Releases the producer leases this admin opened, then closes the connection if this admin created it from a URL. */
  async close(): Promise<void> {
    await Promise.all([...this.leases].map((lease) => lease.release().catch(() => undefined)));
    await this.connection.close();
  }
}

import { RedisQueueAdmin, type DeadLetter, type RedisQueueStats } from '../admin/redis-queue-admin.js';
import type { CrawlStats } from '../stats/read-crawl-stats.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';
import type { ConnectionHandle } from '../core/connection.js';
import { listQueueNames } from '../core/queue-index.js';
import { redisMemoryBytes } from './redis-memory.js';
import { sumStats } from '../admin/shard-admin-parts.js';
import { workerRows, type WorkerRow } from './worker-rows.js';

/** Dead letters listed per queue (the newest); the card shows the full count from the stats. */
const DEAD_LETTERS_SHOWN = 200;
/** Bytes of a dead letter's raw entry shown on the page. */
const PREVIEW_BYTES = 160;

/** One dead letter as the page shows it. */
export interface DeadLetterView {
  id: string;
  source: DeadLetter['source'];
  reason: string;
  /** ISO time it was moved (Redis time). */
  at: string;
  /** The first bytes of the raw entry, as UTF-8. */
  preview: string;
}

/** One queue as the page shows it. */
export interface QueueView {
  name: string;
  stats: RedisQueueStats;
  /** Duplicates filtered, crawl-wide (`crawl.alreadyPresent`: requests offered that the queue did not take as new,
   * whoever answered, the dedup store included), as the workers' stats publish them (0 before any did). */
  dedupHits: number;
  /** The crawl-wide counters the workers publish (`RedisQueueAdmin.crawlStats()`). */
  crawl: CrawlStats;
  deadLetters: DeadLetterView[];
  /** The workers that published stats (`RedisQueueAdmin.workers()`), alive first. */
  workers: WorkerRow[];
  /** Fleet-wide politeness (`RedisQueueAdmin.politenessStats({ top: 10 })`; `enabled: false` without it). */
  politeness: PolitenessStats;
  /** Each shard's counters (`RedisQueueAdmin.shardStats()`): entry i is shard i; one entry for an unsharded queue. */
  shards: RedisQueueStats[];
}

/** What `GET /api/overview` returns. */
export interface Overview {
  /** The Redis, credentials masked. */
  redis: string;
  keyPrefix: string;
  /** ISO time the snapshot was taken (dashboard clock). */
  at: string;
  /** Redis `used_memory` in bytes. */
  memoryBytes: number;
  queues: QueueView[];
}

/** The dashboard's reads and its one write, on one shared connection (one admin per queue, kept). */
export class DashboardApi {
  private readonly admins = new Map<string, RedisQueueAdmin>();

  /**
   * @param connection - the dashboard's connection
   * @param keyPrefix - key prefix of the workers
   * @param redisLabel - the masked Redis for the header
   */
  constructor(
    private readonly connection: ConnectionHandle,
    private readonly keyPrefix: string,
    private readonly redisLabel: string,
  ) {}

  private admin(name: string): RedisQueueAdmin {
    let admin = this.admins.get(name);
    if (!admin) {
      admin = new RedisQueueAdmin({ redis: this.connection.redis, keyPrefix: this.keyPrefix, name });
      this.admins.set(name, admin);
    }
    return admin;
  }

  /** @returns the names of every queue under the prefix, sorted */
  async queueNames(): Promise<string[]> {
    return this.connection.run(() => listQueueNames(this.connection.redis, this.keyPrefix));
  }

  private async queue(name: string): Promise<QueueView> {
    const admin = this.admin(name);
    const [shards, letters, workers, crawl, politeness] = await this.connection.run(() =>
      Promise.all([admin.shardStats(), admin.listDeadLetters(), workerRows(admin), admin.crawlStats(), admin.politenessStats({ top: 10 })]),
    );
    // The queue's counters are the sum of its shards' (what RedisQueueAdmin.stats() returns), read once.
    const stats = shards.length === 1 ? shards[0]! : sumStats(shards);
    return {
      name,
      stats,
      dedupHits: crawl.alreadyPresent,
      crawl,
      deadLetters: letters.slice(-DEAD_LETTERS_SHOWN).reverse().map((letter) => ({
        id: letter.id,
        source: letter.source,
        reason: letter.reason,
        at: letter.at.toISOString(),
        preview: letter.raw.subarray(0, PREVIEW_BYTES).toString('utf8'),
      })),
      workers,
      politeness,
      shards,
    };
  }

  /** @returns one snapshot of every queue, the Redis memory and the time */
  async overview(): Promise<Overview> {
    const names = await this.queueNames();
    const [queues, memoryBytes] = await Promise.all([
      Promise.all(names.map((name) => this.queue(name))),
      this.connection.run(() => redisMemoryBytes(this.connection.redis)),
    ]);
    return { redis: this.redisLabel, keyPrefix: this.keyPrefix, at: new Date().toISOString(), memoryBytes, queues };
  }

  /**
   * Puts one dead letter back into its queue (raw bytes unchanged; see `RedisQueueAdmin.requeueDeadLetters`).
   *
   * @param queue - the queue name (must be in the index)
   * @param id - the dead-letter id
   * @returns the admin's result, or undefined for an unknown queue
   */
  async requeue(queue: string, id: string): Promise<{ requeued: number; skipped: number } | undefined> {
    if (!(await this.queueNames()).includes(queue)) return undefined;
    return this.admin(queue).requeueDeadLetters({ ids: [id] });
  }
}

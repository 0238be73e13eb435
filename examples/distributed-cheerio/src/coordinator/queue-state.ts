import { randomBytes } from 'node:crypto';
import type { PolitenessStats, RedisQueueAdmin, RedisQueueStats } from 'crawlee-redis-queue';
import type { RedisClient } from '../redis/open-redis.js';

/**
 * What a queue's seeding run recorded about its site, next to the queue (same hash tag), so a rerun with the same
 * `--queue` serves the same folder at the same origin (pending URLs and their uniqueKeys stay valid) and merges the
 * records of earlier runs of the same queue.
 */
export interface SeededSite {
  /** `folder:<absolute path>`, `demo`, or `url:<start URL>`. */
  source: string;
  /** Origin the folder was served at (`http://127.0.0.1:<port>/`), empty for a start URL. */
  origin: string;
  /** Random id of this incarnation of the queue: records of a dropped and recreated queue are never merged in. */
  incarnation: string;
}

/** The queue's counters and its seeding record, read before anything is served or started. */
export interface QueueState {
  stats: RedisQueueStats;
  site: SeededSite | undefined;
  /** Producer leases alive now: a seeding run still adding (its workers will not finish, nor will a --join's). */
  producers: number;
  /** The queue's politeness: whether it was created with it, its limits (see queue-politeness.ts). */
  politeness: PolitenessStats;
  /** The shard count recorded in the queue's metadata (1 for a queue created before counts were recorded);
   * undefined when the queue has no metadata yet (a new queue). */
  shards: number | undefined;
}

/** @returns the Redis key of the seeding record of a queue (hash tag `hashTag`) */
export function seededSiteKey(hashTag: string): string {
  return `${hashTag}:example-site`;
}

/** Reads the queue's counters and seeding record (reads only: nothing is created). */
export async function readQueueState(redis: RedisClient, admin: RedisQueueAdmin, hashTag: string): Promise<QueueState> {
  const [stats, raw, leases, politeness, shards] = await Promise.all([
    admin.stats(),
    redis.hgetall(seededSiteKey(hashTag)),
    admin.producerLeases(),
    admin.politenessStats({ top: 1 }),
    recordedShards(redis, admin.keys.meta),
  ]);
  const site =
    typeof raw.source === 'string' && typeof raw.incarnation === 'string'
      ? { source: raw.source, origin: raw.origin ?? '', incarnation: raw.incarnation }
      : undefined;
  return { stats, site, producers: leases.length, politeness, shards };
}

/**
 * The shard count crawlee-redis-queue recorded in the queue's root metadata (`{p:rq:name}:meta`, field `shards`,
 * the layout every client of the queue must open it with). Read here, before anything is served or started, so a
 * run with another `--shards` is refused up front.
 *
 * @param meta - the queue's metadata key (`admin.keys.meta`)
 * @returns the count; 1 for metadata without one (a queue created before shards existed); undefined without metadata
 */
async function recordedShards(redis: RedisClient, meta: string): Promise<number | undefined> {
  const [exists, shards] = await Promise.all([redis.exists(meta), redis.hget(meta, 'shards')]);
  if (exists === 0) return undefined;
  const n = Number(shards ?? 1);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * Stores the seeding record unless one exists (HSETNX per field, so two seeding runs agree on the first one).
 *
 * @returns the record in Redis after the call
 */
export async function recordSeededSite(redis: RedisClient, hashTag: string, site: Omit<SeededSite, 'incarnation'>): Promise<SeededSite> {
  const key = seededSiteKey(hashTag);
  await redis
    .multi()
    .hsetnx(key, 'source', site.source)
    .hsetnx(key, 'origin', site.origin)
    .hsetnx(key, 'incarnation', randomBytes(6).toString('hex'))
    .exec();
  const raw = await redis.hgetall(key);
  return { source: raw.source ?? site.source, origin: raw.origin ?? site.origin, incarnation: raw.incarnation ?? '' };
}

/** True when every request of the queue is handled (and there was at least one). */
export function isFinished(stats: RedisQueueStats): boolean {
  return stats.total > 0 && stats.pending === 0;
}

import type { RedisConnection } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { workerStatsKeys } from './worker-stats-keys.js';

/** Crawl-wide counters of a queue, summed over every worker that ever published. */
export interface CrawlStats {
  /** Requests marked handled whose handler succeeded. */
  handled: number;
  /** Requests marked handled after their handler failed for good. */
  failed: number;
  /** Requests given back for a retry. */
  retried: number;
  /**
   * Duplicates filtered: requests offered to the queue that it did not take as new, whoever answered (Crawlee's
   * request cache of a `RedisRequestQueue`, the queue's uniqueKey check, the attached dedup store). The one figure
   * `stats`, the dashboard and the metrics show.
   */
  alreadyPresent: number;
  /** Of the requests filtered, those the attached dedup store (a crawlee-bloom-dedup Redis store) answered: the
   * `filtered` field of its counter hash, which also counts what that store filtered in front of a queue.
   * Undefined when no worker reported a filter. */
  dedupFiltered?: number;
  /** Key of that counter hash. */
  dedupKey?: string;
}

const num = (value: string | null | undefined): number => {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Reads the crawl-wide counters (`{p:rq:name}:stats`) and the enqueue filter's counter hash they point to.
 *
 * @param redis - the connection
 * @param keys - the queue's keys
 * @returns the counters (zeros before any worker published)
 */
export async function readCrawlStats(redis: RedisConnection, keys: Pick<QueueKeys, 'tag'>): Promise<CrawlStats> {
  const [handled, failed, retried, alreadyPresent, dedupKey, dedupField] = await redis.hmget(
    workerStatsKeys(keys).crawl,
    'handled',
    'failed',
    'retried',
    'alreadyPresent',
    'dedupKey',
    'dedupField',
  );
  const stats: CrawlStats = { handled: num(handled), failed: num(failed), retried: num(retried), alreadyPresent: num(alreadyPresent) };
  if (dedupKey && dedupField) {
    // The store's key may be on another Cluster slot: a command of its own.
    stats.dedupFiltered = num(await redis.hget(dedupKey, dedupField).catch(() => null));
    stats.dedupKey = dedupKey;
  }
  return stats;
}


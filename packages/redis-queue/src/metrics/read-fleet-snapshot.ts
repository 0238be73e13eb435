import { RedisQueueAdmin } from '../admin/redis-queue-admin.js';
import type { RedisQueueStats } from '../admin/redis-queue-admin.js';
import type { RedisConnection } from '../core/connection.js';
import { listQueueNames } from '../core/queue-index.js';
import type { CrawlStats } from '../stats/read-crawl-stats.js';
import type { WorkerInfo } from '../stats/read-worker-stats.js';

/** What one scrape reads about one queue. */
export interface QueueSnapshot {
  name: string;
  stats: RedisQueueStats;
  crawl: CrawlStats;
  bytes: number;
  workers: WorkerInfo[];
}

/**
 * Reads every queue's counters, crawl counters, memory and workers (O(queues × (keys + workers))).
 *
 * @param redis - the connection
 * @param keyPrefix - the key prefix
 * @param queues - queue names, or undefined for every queue in the index
 * @returns one snapshot per existing queue
 */
export async function readFleetSnapshot(redis: RedisConnection, keyPrefix: string, queues: readonly string[] | undefined): Promise<QueueSnapshot[]> {
  const names = queues ?? (await listQueueNames(redis, keyPrefix));
  return Promise.all(
    names.map(async (name) => {
      const admin = new RedisQueueAdmin({ redis, keyPrefix, name });
      const [stats, crawl, memory, workers] = await Promise.all([admin.stats(), admin.crawlStats(), admin.memoryUsage(), admin.workers()]);
      return { name, stats, crawl, bytes: memory.bytes, workers };
    }),
  );
}

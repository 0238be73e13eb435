import type { QueueKeys } from '../core/keys.js';

/** The Redis keys of a queue's worker stats, all under the queue's hash tag (one Cluster slot with the queue). */
export interface WorkerStatsKeys {
  /** ZSET: worker id → last seen (ms, Redis time). */
  readonly workers: string;
  /** HASH: crawl-wide counters (handled, failed, retried, alreadyPresent) and where the dedup counter lives. */
  readonly crawl: string;
  /** HASH of one worker's record; it expires when the worker stops publishing.
   * @param workerId - the worker id */
  worker(workerId: string): string;
}

/**
 * The worker-stats keys of a queue: `{p:rq:name}:workers`, `{p:rq:name}:stats`, `{p:rq:name}:worker:<id>`.
 *
 * @param keys - the queue's keys (for the hash tag)
 * @returns the key set
 */
export function workerStatsKeys(keys: Pick<QueueKeys, 'tag'>): WorkerStatsKeys {
  return {
    workers: `${keys.tag}:workers`,
    crawl: `${keys.tag}:stats`,
    worker: (workerId) => `${keys.tag}:worker:${workerId}`,
  };
}

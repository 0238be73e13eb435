import type { RedisQueueAdmin } from '../admin/redis-queue-admin.js';
import type { WorkerInfo } from '../stats/read-worker-stats.js';

/** One row of the dashboard's worker table (what `crawlee-redis workers` prints, as JSON). */
export interface WorkerRow {
  /** `<host>:<pid>:<random>`. */
  id: string;
  state: WorkerInfo['state'];
  handled: number;
  failed: number;
  retried: number;
  /** Locks held at the worker's last publish. */
  locks: number;
  /** Times its liveness heartbeat lapsed (its locks may have been refetched by others). */
  lapses: number;
  /** Requests finished per second over its last interval. */
  rate: number;
  /** ISO time of the first publish (Redis time); null once the record expired. */
  startedAt: string | null;
  /** ISO time of the last publish (Redis time). */
  lastSeen: string;
}

/**
 * The worker rows of one queue, from the worker stats in Redis (`RedisQueueAdmin.workers()`): alive, stopped and
 * dead workers, alive first.
 *
 * @param admin - the queue's admin
 * @returns the rows
 */
export async function workerRows(admin: RedisQueueAdmin): Promise<WorkerRow[]> {
  const workers = await admin.workers();
  return workers.map((w) => ({
    id: w.id,
    state: w.state,
    handled: w.handled,
    failed: w.failed,
    retried: w.retried,
    locks: w.locks,
    lapses: w.lapses,
    rate: Math.round(w.rate * 10) / 10,
    startedAt: w.startedAt ? w.startedAt.toISOString() : null,
    lastSeen: w.lastSeen.toISOString(),
  }));
}

import type { RequestQueue } from 'crawlee';
import type { DedupStats, DedupStore } from 'crawlee-bloom-dedup';
import type { PolitenessStats, RedisQueueAdmin } from 'crawlee-redis-queue';
import type { RunCounters } from '../worker/run-counters.js';

/** Queue counts as the queue itself keeps them. `locked` is null where the backend cannot tell (MemoryStorage). */
export interface QueueCounts {
  total: number;
  pending: number;
  locked: number | null;
  handled: number;
  deadLetters: number;
}

/** One reading of the whole fleet: queue counts, the workers' shared counters, the dedup store's own stats. */
export interface FleetSnapshot {
  queue: QueueCounts;
  counters: Record<string, number>;
  store?: DedupStats;
  /** The queue's host schedule (Redis runs): hosts with available requests, hosts waiting, the longest wait. */
  politeness?: PolitenessStats;
}

/**
 * The counts with none below 0. The queue's counters are kept by every writer of its keys, and an entry someone else
 * wrote (dead-lettered when a worker reads it) can leave one below zero; a negative count would only mislead.
 */
export function clampCounts(q: QueueCounts): QueueCounts {
  return {
    total: Math.max(0, q.total),
    pending: Math.max(0, q.pending),
    locked: q.locked === null ? null : Math.max(0, q.locked),
    handled: Math.max(0, q.handled),
    deadLetters: Math.max(0, q.deadLetters),
  };
}

/** A function that reads a snapshot; every number comes from the shared state, none from the coordinator's guesses. */
export type ReadSnapshot = () => Promise<FleetSnapshot>;

/** Snapshot of a distributed run: queue counts from the Redis admin API, counters from the run's Redis hash. */
export function redisSnapshot(
  admin: RedisQueueAdmin,
  counters: RunCounters,
  store?: DedupStore,
  politeness?: () => Promise<PolitenessStats>,
): ReadSnapshot {
  return async () => {
    const [stats, values, storeStats, hosts] = await Promise.all([admin.stats(), counters.read(), store?.stats(), politeness?.()]);
    const snapshot: FleetSnapshot = {
      queue: clampCounts({
        total: stats.total,
        pending: stats.pending,
        locked: stats.locked,
        handled: stats.handled,
        deadLetters: stats.deadLetters,
      }),
      counters: values,
    };
    if (storeStats !== undefined) snapshot.store = storeStats;
    if (hosts !== undefined) snapshot.politeness = hosts;
    return snapshot;
  };
}

/** Snapshot of the one-process fallback: queue counts from Crawlee's queue info. */
export function memorySnapshot(queue: RequestQueue, counters: RunCounters, store?: DedupStore): ReadSnapshot {
  return async () => {
    const [info, values, storeStats] = await Promise.all([queue.getInfo(), counters.read(), store?.stats()]);
    const total = info?.totalRequestCount ?? 0;
    const handled = info?.handledRequestCount ?? 0;
    const snapshot: FleetSnapshot = {
      queue: { total, handled, pending: info?.pendingRequestCount ?? total - handled, locked: null, deadLetters: 0 },
      counters: values,
    };
    if (storeStats !== undefined) snapshot.store = storeStats;
    return snapshot;
  };
}

/** Duplicates filtered across the fleet: requests offered to the queue that it did not take as new. */
export function duplicatesFiltered(counters: Record<string, number>): number {
  return Math.max(0, (counters.offered ?? 0) - (counters.enqueued ?? 0));
}

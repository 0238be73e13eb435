import type { RedisConnection } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { workerStatsKeys } from './worker-stats-keys.js';
import { redisTimeMs } from '../core/redis-time-ms.js';

/** One worker of a queue, as its last published record says. */
export interface WorkerInfo {
  /** Worker id: `<host>:<pid>:<random>`, one per queue client (Crawlee `RequestQueue` instance). */
  id: string;
  /** `alive`: published within its TTL; `stopped`: closed cleanly (its last record stays for the retention time,
   * `deadRetentionSecs`, default 600 s);
   * `dead`: silent longer than its TTL (killed, hung or cut off); `unreadable`: the record is not a stats hash. */
  state: 'alive' | 'stopped' | 'dead' | 'unreadable';
  /** Host name of the worker's machine (empty once dead: the record expired). */
  host: string;
  /** Process id (0 once dead). */
  pid: number;
  /** The lock owner (Crawlee's clientKey) of the worker's queue client. */
  clientKey: string;
  /** First publish (Redis time); undefined once dead. */
  startedAt?: Date;
  /** Last publish (Redis time). */
  lastSeen: Date;
  /** Requests it marked handled whose handler succeeded. */
  handled: number;
  /** Requests it marked handled after their handler failed for good. */
  failed: number;
  /** Requests it gave back for a retry. */
  retried: number;
  /** Requests it tried to add that the queue already held (dedup by uniqueKey). */
  alreadyPresent: number;
  /** Locks it held at its last publish. */
  locks: number;
  /** Times its liveness heartbeat lapsed (its event loop was blocked, or Redis out of reach, past the liveness
   * window: its locks may have been refetched by others); 0 without liveness. */
  lapses: number;
  /** Requests finished (handled + failed) per second over its last interval; 0 once it stopped or died (its last
   * interval's rate is not a rate any more). */
  rate: number;
  /** Its publish interval in ms. */
  intervalMs: number;
  /** Its record TTL in ms. */
  ttlMs: number;
}

const num = (value: string | undefined): number => {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Reads every worker of a queue listed in its `:workers` sorted set, newest first, and prunes ids whose record
 * expired more than `retentionMs` ago. O(workers).
 *
 * @param redis - the connection
 * @param keys - the queue's keys
 * @param retentionMs - how long a dead worker stays listed
 * @returns the workers, alive ones first, then by last seen (newest first)
 */
export async function readWorkers(redis: RedisConnection, keys: Pick<QueueKeys, 'tag'>, retentionMs: number): Promise<WorkerInfo[]> {
  const k = workerStatsKeys(keys);
  const [time, entries] = await Promise.all([
    redis.time() as Promise<[string | number, string | number]>,
    redis.zrange(k.workers, '0', '-1', 'WITHSCORES'),
  ]);
  const now = redisTimeMs(time);
  const ids: Array<[string, number]> = [];
  for (let i = 0; i + 1 < entries.length; i += 2) ids.push([entries[i]!, Number(entries[i + 1])]);
  const records = await Promise.all(ids.map(([id]) => redis.hgetall(k.worker(id)).catch(() => null)));
  const workers: WorkerInfo[] = [];
  const prune: string[] = [];
  ids.forEach(([id, lastSeen], i) => {
    const record = records[i] ?? null;
    const base = { id, host: '', pid: 0, clientKey: '', lastSeen: new Date(lastSeen), handled: 0, failed: 0, retried: 0, alreadyPresent: 0, locks: 0, lapses: 0, rate: 0, intervalMs: 0, ttlMs: 0 };
    if (record === null) {
      workers.push({ ...base, state: 'unreadable' });
      return;
    }
    if (Object.keys(record).length === 0) {
      if (now - lastSeen > retentionMs) prune.push(id);
      else workers.push({ ...base, state: 'dead' });
      return;
    }
    const seen = num(record.lastSeen) || lastSeen;
    const ttlMs = num(record.ttlMs);
    // A stopped worker published its last record on purpose: it is not judged by its TTL (it expires by itself).
    const expired = record.state !== 'stopped' && ttlMs > 0 && now - seen > ttlMs;
    const state = expired ? 'dead' : record.state === 'stopped' ? 'stopped' : 'alive';
    workers.push({
      ...base,
      state,
      host: record.host ?? '',
      pid: num(record.pid),
      clientKey: record.clientKey ?? '',
      startedAt: record.startedAt ? new Date(num(record.startedAt)) : undefined,
      lastSeen: new Date(seen),
      handled: num(record.handled),
      failed: num(record.failed),
      retried: num(record.retried),
      alreadyPresent: num(record.alreadyPresent),
      locks: num(record.locks),
      lapses: num(record.lapses),
      rate: state === 'alive' ? num(record.rate) : 0,
      intervalMs: num(record.intervalMs),
      ttlMs,
    });
  });
  if (prune.length > 0) await redis.zrem(k.workers, ...prune);
  const order = { alive: 0, stopped: 1, dead: 2, unreadable: 3 } as const;
  return workers.sort((a, b) => order[a.state] - order[b.state] || b.lastSeen.getTime() - a.lastSeen.getTime() || a.id.localeCompare(b.id));
}

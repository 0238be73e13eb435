import type { RedisQueueAdmin } from '../admin/redis-queue-admin.js';
import type { RedisConnection } from '../redis/connection.js';

/** One row of the dashboard's worker table: whatever fields the source has (rendered as columns). */
export type WorkerRow = Record<string, string | number | boolean | null>;

/** Where the worker rows came from. */
export type WorkerSource = 'worker-stats' | 'lock-owners';

function flatten(row: unknown): WorkerRow {
  const out: WorkerRow = {};
  for (const [key, value] of Object.entries((row ?? {}) as Record<string, unknown>)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value as WorkerRow[string];
    else if (value instanceof Date) out[key] = value.toISOString();
    else out[key] = JSON.stringify(value);
  }
  return out;
}

/**
 * The worker rows of one queue. Worker stats in Redis (`RedisQueueAdmin.workers(queue)`) are used when this version
 * of the admin has them; otherwise the rows are the lock owners of the queue right now (each crawler's
 * `RequestQueue` has its own clientKey), counted from the owner hash: always available, but only workers holding a
 * lock show up.
 *
 * @param admin - the queue's admin
 * @param redis - the connection (for the fallback)
 * @param queue - the queue name
 * @returns the rows and their source
 */
export async function workerRows(admin: RedisQueueAdmin, redis: RedisConnection, queue: string): Promise<{ source: WorkerSource; rows: WorkerRow[] }> {
  const workers = (admin as unknown as { workers?: (queue: string) => Promise<unknown[]> }).workers;
  if (typeof workers === 'function') {
    const rows = await workers.call(admin, queue);
    return { source: 'worker-stats', rows: (Array.isArray(rows) ? rows : []).map(flatten) };
  }
  const owners = await redis.hgetall(admin.keys.owner);
  const ids = Object.keys(owners);
  const scores = ids.length > 0 ? await redis.zmscore(admin.keys.locks, ...ids) : [];
  const expiry = new Map<string, number>(ids.map((id, n) => [id, Number(scores[n] ?? 0)]));
  const byOwner = new Map<string, { locks: number; lockExpiresAt: number }>();
  const now = Date.now();
  for (const [requestId, owner] of Object.entries(owners)) {
    // The owner hash can keep the owner of an expired lock until someone takes the request again.
    if ((expiry.get(requestId) ?? 0) <= now) continue;
    const row = byOwner.get(owner) ?? { locks: 0, lockExpiresAt: 0 };
    row.locks++;
    row.lockExpiresAt = Math.max(row.lockExpiresAt, expiry.get(requestId) ?? 0);
    byOwner.set(owner, row);
  }
  const rows = [...byOwner].map(([owner, row]) => ({ lockOwner: owner, locks: row.locks, lockExpiresAt: new Date(row.lockExpiresAt).toISOString() }));
  rows.sort((a, b) => a.lockOwner.localeCompare(b.lockOwner));
  return { source: 'lock-owners', rows };
}

import type { DeadLetter, RedisQueueStats } from './admin-types.js';
import type { FailedRequest } from './failed-requests.js';

// How the admin of a sharded queue combines its shards' answers (RedisQueueAdmin asks one sub-admin per shard).

/** @param parts - each shard's counters @returns the sums */
export function sumStats(parts: readonly RedisQueueStats[]): RedisQueueStats {
  const sum = (f: (s: RedisQueueStats) => number) => parts.reduce((a, s) => a + f(s), 0);
  return { total: sum((s) => s.total), pending: sum((s) => s.pending), locked: sum((s) => s.locked), handled: sum((s) => s.handled), deadLetters: sum((s) => s.deadLetters) };
}

type Expiries = { locked: number; firstExpiresInSecs?: number; lastExpiresInSecs?: number };

/** @param parts - each shard's lock expiries @returns the count summed, the earliest first and the latest last */
export function mergeLockExpiries(parts: readonly Expiries[]): Expiries {
  const firsts = parts.flatMap((p) => (p.firstExpiresInSecs === undefined ? [] : [p.firstExpiresInSecs]));
  const lasts = parts.flatMap((p) => (p.lastExpiresInSecs === undefined ? [] : [p.lastExpiresInSecs]));
  return {
    locked: parts.reduce((a, p) => a + p.locked, 0),
    firstExpiresInSecs: firsts.length ? Math.min(...firsts) : undefined,
    lastExpiresInSecs: lasts.length ? Math.max(...lasts) : undefined,
  };
}

/** @param parts - each shard's memory @returns bytes summed, per key suffix summed over the shards */
export function mergeMemory(parts: ReadonlyArray<{ bytes: number; byKey: Record<string, number> }>): { bytes: number; byKey: Record<string, number> } {
  const byKey: Record<string, number> = {};
  for (const part of parts) for (const [key, size] of Object.entries(part.byKey)) byKey[key] = (byKey[key] ?? 0) + size;
  return { bytes: parts.reduce((a, p) => a + p.bytes, 0), byKey };
}

/** @param parts - each shard's dead letters @returns all of them, oldest first */
export function mergeDeadLetters(parts: readonly DeadLetter[][]): DeadLetter[] {
  return parts.flat().sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
}

/** @param parts - each shard's failed requests (each its first offset + limit) @param offset - skip @param limit - keep
 * @returns the page of all shards' failed requests, oldest failure first */
export function mergeFailed(parts: readonly FailedRequest[][], offset: number, limit: number): FailedRequest[] {
  return parts.flat().sort((a, b) => a.failedAt.getTime() - b.failedAt.getTime()).slice(offset, offset + limit);
}

/** @param parts - each shard's counts @returns the counts summed field by field */
export function sumCounts<T extends Record<string, number>>(parts: readonly T[]): T {
  const out: Record<string, number> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) out[k] = (out[k] ?? 0) + v;
  return out as T;
}

import type { RedisConnection } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { workerStatsKeys } from './worker-stats-keys.js';
import { metaNumber } from '../core/meta-number.js';

/** Redis memory of one queue, from `MEMORY USAGE`. */
export interface QueueMemory {
  /** Bytes used by the queue's keys (the 'key' index extrapolated from a sample of its buckets). */
  bytes: number;
  /** Bytes per key (suffix after the hash tag); `ix:*` and `hb:*` summed under those names. */
  byKey: Record<string, number>;
}

/** Index buckets (and Bloom blocks) measured per read; the rest is extrapolated from their mean. */
export const MEMORY_SAMPLE_BUCKETS = 16;

/**
 * Bytes used by one queue's keys: `MEMORY USAGE <key> SAMPLES 5` of the fixed keys, plus the handled store of its
 * mode: the 'key' index from {@link MEMORY_SAMPLE_BUCKETS} random buckets extrapolated to the bucket count in meta
 * (2^hxL + hxS), the 'bits' blocks likewise (all equal in size). O(fixed keys + sample), never O(N).
 * @param redis - the connection
 * @param keys - the queue's keys
 * @returns total and per-key bytes
 */
export async function readQueueMemory(redis: RedisConnection, keys: QueueKeys): Promise<QueueMemory> {
  const stats = workerStatsKeys(keys);
  const fixed = [...keys.all, keys.failed, keys.failedData, keys.failedKept, keys.stalls, stats.workers, stats.crawl];
  const usage = (key: string) => redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '5') as Promise<number | null>;
  const [meta, sizes] = await Promise.all([redis.hmget(keys.meta, 'hmode', 'hxL', 'hxS', 'hbBlocks'), Promise.all(fixed.map(usage))]);
  const byKey: Record<string, number> = {};
  let bytes = 0;
  fixed.forEach((key, i) => {
    const size = sizes[i];
    if (typeof size !== 'number') return;
    byKey[key.slice(keys.tag.length + 1)] = size;
    bytes += size;
  });
  const [mode, ...metaSizes] = meta;
  const [hxL, hxS, hbBlocks] = (['hxL', 'hxS', 'hbBlocks'] as const).map((field, i) => String(metaNumber('queue memory', keys.meta, field, metaSizes[i], 0)));
  const sampled = async (prefix: string, count: number, name: string) => {
    if (count <= 0) return;
    const picks = count <= MEMORY_SAMPLE_BUCKETS ? [...Array(count).keys()] : Array.from({ length: MEMORY_SAMPLE_BUCKETS }, () => Math.floor(Math.random() * count));
    const found = await Promise.all(picks.map((i) => usage(`${prefix}${i}`)));
    const mean = found.reduce<number>((sum, size) => sum + (size ?? 0), 0) / picks.length;
    byKey[name] = Math.round(mean * count);
    bytes += byKey[name];
  };
  if (mode === 'bits') await sampled(keys.hbPrefix, Number(hbBlocks ?? 0), 'hb:*');
  else await sampled(keys.ixPrefix, 2 ** Number(hxL ?? 0) + Number(hxS ?? 0), 'ix:*');
  return { bytes, byKey };
}

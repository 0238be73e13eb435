import type { RedisQueueStats } from '../../admin/admin-types.js';
import { formatCount } from '../format.js';

/** Width of the longest pending bar, in characters. */
const BAR_WIDTH = 24;

/**
 * The per-shard lines of `watch` on a sharded queue: each shard's pending, locked and handled, with a bar of its
 * pending scaled to the busiest shard, so a skewed shard (one host holding a shard) stands out at a glance.
 * @param shards - `RedisQueueAdmin.shardStats()`, entry i for shard i
 * @returns no lines for an unsharded queue
 */
export function shardLines(shards: readonly RedisQueueStats[]): string[] {
  if (shards.length <= 1) return [];
  const most = Math.max(1, ...shards.map((s) => s.pending));
  const pending = shards.reduce((n, s) => n + s.pending, 0);
  const label = (i: number) => `s${i}`.padEnd(`s${shards.length - 1}`.length);
  const width = (f: (s: RedisQueueStats) => number) => Math.max(...shards.map((s) => formatCount(f(s)).length));
  const [wp, wl, wh] = [width((s) => s.pending), width((s) => s.locked), width((s) => s.handled)];
  return [
    `shards: ${shards.length}, pending per shard (even would be ${(100 / shards.length).toFixed(0)}% each)`,
    ...shards.map((s, i) => {
      const share = pending > 0 ? `${((100 * s.pending) / pending).toFixed(0)}%`.padStart(4) : '   -';
      const bar = '#'.repeat(Math.round((BAR_WIDTH * s.pending) / most));
      return `  ${label(i)}  pending ${formatCount(s.pending).padStart(wp)} ${share}  locked ${formatCount(s.locked).padStart(wl)}  handled ${formatCount(s.handled).padStart(wh)}  ${bar}`;
    }),
  ];
}

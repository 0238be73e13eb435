import type { DedupStats } from '../../dedup-store.js';

/**
 * The stats of a split store from its parts': counts, bytes, bits and blocks are sums; the fill ratio and the
 * estimated false-positive rate are the means over the parts (a new key meets one part, each about as likely when
 * keys spread evenly), so one overfull part shows in them; `capacity` and `errorRate` are the store's own options.
 * @param parts - each part's stats
 * @param whole - the store's capacity and error rate (Bloom)
 */
export function sumStats(parts: readonly DedupStats[], whole: { capacity?: number; errorRate?: number } = {}): DedupStats {
  const sum = (f: (s: DedupStats) => number | undefined) => parts.reduce((a, s) => a + (f(s) ?? 0), 0);
  const mean = (f: (s: DedupStats) => number) => (parts.length === 0 ? 0 : sum(f) / parts.length);
  const out: DedupStats = {
    itemsAdded: sum((s) => s.itemsAdded),
    filtered: sum((s) => s.filtered),
    fillRatio: mean((s) => s.fillRatio),
    estimatedFalsePositiveRate: mean((s) => s.estimatedFalsePositiveRate),
    bytesUsed: sum((s) => s.bytesUsed),
    parts: parts.length,
  };
  if (whole.capacity !== undefined) {
    Object.assign(out, { capacity: whole.capacity, errorRate: whole.errorRate, bits: sum((s) => s.bits), hashes: parts[0]?.hashes, blocks: sum((s) => s.blocks) });
  }
  return out;
}

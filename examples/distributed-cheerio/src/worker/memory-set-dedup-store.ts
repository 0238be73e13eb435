import type { DedupStats, DedupStore } from 'crawlee-bloom-dedup';

/**
 * An exact in-memory dedup store (a JS Set), for `--dedup set` in the one-process fallback. crawlee-bloom-dedup has
 * exact dedup only on Redis; in one process a Set is all it takes.
 */
export class MemorySetDedupStore implements DedupStore {
  private readonly seen = new Set<string>();
  private filtered = 0;

  async add(keys: readonly string[]): Promise<boolean[]> {
    return keys.map((key) => {
      if (this.seen.has(key)) return false;
      this.seen.add(key);
      return true;
    });
  }

  async has(keys: readonly string[]): Promise<boolean[]> {
    return keys.map((key) => this.seen.has(key));
  }

  async stats(): Promise<DedupStats> {
    return {
      itemsAdded: this.seen.size,
      filtered: this.filtered,
      fillRatio: 0,
      estimatedFalsePositiveRate: 0,
      bytesUsed: 0,
    } as DedupStats;
  }

  async recordFiltered(count: number): Promise<void> {
    this.filtered += count;
  }

  async close(): Promise<void> {
    this.seen.clear();
  }
}

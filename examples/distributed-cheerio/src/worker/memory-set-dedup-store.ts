import type { DedupStats, DedupStore } from 'crawlee-bloom-dedup';

/**
 * An exact in-memory dedup store (a JS Set), for `--dedup set` in the one-process fallback. crawlee-bloom-dedup has
 * exact dedup only on Redis; in one process a Set is all it takes.
 */
export class MemorySetDedupStore implements DedupStore {
  private readonly seen = new Set<string>();
  private filtered = 0;

  add(keys: readonly string[]): Promise<boolean[]> {
    return Promise.resolve(
      keys.map((key) => {
        if (this.seen.has(key)) return false;
        this.seen.add(key);
        return true;
      }),
    );
  }

  has(keys: readonly string[]): Promise<boolean[]> {
    return Promise.resolve(keys.map((key) => this.seen.has(key)));
  }

  stats(): Promise<DedupStats> {
    return Promise.resolve({
      itemsAdded: this.seen.size,
      filtered: this.filtered,
      fillRatio: 0,
      estimatedFalsePositiveRate: 0,
      bytesUsed: 0,
    });
  }

  recordFiltered(count: number): Promise<void> {
    this.filtered += count;
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.seen.clear();
    return Promise.resolve();
  }
}

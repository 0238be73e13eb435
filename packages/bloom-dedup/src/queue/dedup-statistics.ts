import type { Statistics } from 'crawlee';

/** Name of the statistic, as Scrapy reports `bloomfilter/filtered`. */
export const DEDUP_FILTERED_STAT = 'dedup/filtered';

const SOURCES = Symbol.for('crawlee-bloom-dedup/statistics-sources@1');

/** Something that counts filtered requests (one per wrapped queue). */
export interface FilteredCounter {
  filtered: number;
}

type LinkedStatistics = Statistics & { [SOURCES]?: Set<FilteredCounter> };

/**
 * Makes `dedup/filtered` part of a crawler's statistics: `calculate()` (the periodic and final log lines) and therefore
 * `toJSON()` (the state persisted to the key-value store as `SDK_CRAWLER_STATISTICS_<id>`). The count lives outside
 * `stats.state`, which `reset()` replaces.
 * @param statistics - the crawler's `crawler.stats`
 * @param counter - the wrapped queue's counter
 */
export function linkDedupStatistics(statistics: Statistics, counter: FilteredCounter): void {
  const linked = statistics as LinkedStatistics;
  if (!linked[SOURCES]) {
    const sources = new Set<FilteredCounter>();
    linked[SOURCES] = sources;
    const calculate = statistics.calculate.bind(statistics);
    statistics.calculate = () => {
      let filtered = 0;
      for (const source of sources) filtered += source.filtered;
      return { ...calculate(), [DEDUP_FILTERED_STAT]: filtered };
    };
  }
  linked[SOURCES]?.add(counter);
}

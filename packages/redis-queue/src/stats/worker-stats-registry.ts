import { NO_WORKER_STATS, type WorkerStatsRecorder } from './worker-stats-recorder.js';
import type { WorkerStatsSettings } from './worker-stats-options.js';
import { WorkerStatsPublisher, type WorkerStatsSource } from './worker-stats-publisher.js';

/**
 * The worker-stats publishers of one storage client: creates one per queue client, publishes what is left when
 * the process is about to exit (Node's `beforeExit`, once), and closes them all with the storage client.
 */
export class WorkerStatsRegistry {
  private readonly publishers = new Set<WorkerStatsPublisher>();
  private exitFlushed = false;
  private readonly onBeforeExit = (): void => {
    // A crawl that ends without close() would lose the last interval's counters; beforeExit fires when the event
    // loop is empty, and the publish keeps it alive until Redis answered. Once only: a failed publish keeps its
    // deltas, and flushing again would keep the process alive for ever.
    if (this.exitFlushed) return;
    this.exitFlushed = true;
    for (const publisher of this.publishers) if (publisher.started && publisher.dirty) void publisher.publish();
  };

  /** @param settings - validated settings, or undefined when worker stats are off */
  constructor(private readonly settings: WorkerStatsSettings | undefined) {}

  /**
   * The recorder of one queue client.
   *
   * @param source - the client's connection, keys, clientKey and lock count
   * @returns a publisher, or a no-op recorder when worker stats are off
   */
  create(source: WorkerStatsSource): WorkerStatsRecorder {
    if (!this.settings) return NO_WORKER_STATS;
    // Tracked from its first lock on: clients Crawlee or this package create only to read or create a queue never
    // lock, never publish and are not kept.
    return new WorkerStatsPublisher(source, this.settings, (publisher) => {
      if (this.publishers.size === 0) process.on('beforeExit', this.onBeforeExit);
      this.publishers.add(publisher);
    });
  }

  /** Publishes the counters that wait in every started publisher now (state stays `running`). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.publishers].filter((p) => p.started && p.dirty && !p.isClosed).map((p) => p.publish()));
  }

  /** Publishes every started publisher's last counters (state `stopped`) and stops them. */
  async closeAll(): Promise<void> {
    const all = [...this.publishers];
    this.publishers.clear();
    process.off('beforeExit', this.onBeforeExit);
    await Promise.all(all.map((publisher) => publisher.close()));
  }
}

import { log } from 'crawlee';
import { duplicatesFiltered, type ReadSnapshot } from './fleet-snapshot.js';
import { count } from './print-summary.js';

/**
 * Logs one progress line every `intervalSecs`: handled, pending, locked, duplicates filtered, pages/s (and the shard
 * count of a sharded queue, whose counts are the sums over its shards). The rate is
 * the change of the fleet's page counter between two readings divided by the time between them.
 */
export class ProgressReporter {
  private timer: NodeJS.Timeout | undefined;
  private last: { at: number; pages: number } | undefined;
  private reading = false;
  /** Progress lines in a row with no page done. */
  private stalledTicks = 0;
  /** Most hosts waiting at once and the longest wait, over every reading (the summary prints them). */
  readonly politenessPeak = { hostsWaiting: 0, longestWaitSecs: 0 };

  constructor(
    private readonly read: ReadSnapshot,
    private readonly intervalSecs: number,
    private readonly alive: () => number,
    /** Says why nothing moves while requests are locked (see explainLockWait); undefined: nothing to add. */
    private readonly explainStall?: (locked: number, quietSecs: number) => Promise<string | undefined>,
    /** The queue's shard count; above 1 the line says it (the counts are the sums over the shards). */
    private readonly shards = 1,
  ) {}

  start(): void {
    this.last = { at: Date.now(), pages: 0 };
    this.timer = setInterval(() => void this.tick(), this.intervalSecs * 1000);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const snapshot = await this.read();
      const now = Date.now();
      const pages = snapshot.counters.pages ?? 0;
      const last = this.last ?? { at: now, pages };
      const rate = now > last.at ? ((pages - last.pages) * 1000) / (now - last.at) : 0;
      this.last = { at: now, pages };
      const q = snapshot.queue;
      const store = snapshot.store === undefined ? '' : ` (store: ${count(snapshot.store.itemsAdded, 'key')})`;
      const p = snapshot.politeness;
      if (p !== undefined) {
        this.politenessPeak.hostsWaiting = Math.max(this.politenessPeak.hostsWaiting, p.hostsWaiting);
        this.politenessPeak.longestWaitSecs = Math.max(this.politenessPeak.longestWaitSecs, p.longestWaitSecs);
      }
      const hosts = p === undefined ? '' : ` | hosts waiting ${p.hostsWaiting}/${p.hosts}, longest wait ${p.longestWaitSecs.toFixed(1)} s`;
      log.info(
        `progress: handled ${q.handled}/${q.total} | pending ${q.pending} | locked ${q.locked ?? 'n/a'} | ` +
          `duplicates filtered ${duplicatesFiltered(snapshot.counters)}${store} | ${rate.toFixed(1)} pages/s | ` +
          `workers alive ${this.alive()}${this.shards > 1 ? ` | shards ${this.shards}` : ''}${hosts}`,
      );
      this.stalledTicks = pages === last.pages && (q.locked ?? 0) > 0 ? this.stalledTicks + 1 : 0;
      // Two quiet lines in a row: not a slow first page, but requests nobody can take until their locks expire.
      if (this.stalledTicks >= 2 && this.explainStall !== undefined) {
        const why = await this.explainStall(q.locked ?? 0, this.stalledTicks * this.intervalSecs);
        if (why !== undefined) log.info(`progress: ${why}`);
      }
    } catch (error) {
      // Redis gone for good: the coordinator's loss watch says so in one line and stops the run.
      if ((error as { code?: unknown }).code === 'REDIS_UNREACHABLE') return;
      log.warning(`progress: could not read the fleet's state (${(error as Error).message})`);
    } finally {
      this.reading = false;
    }
  }
}

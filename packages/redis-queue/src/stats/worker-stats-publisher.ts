import { log } from 'crawlee';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ConnectionHandle } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { runPublishScript } from './stats-script.js';
import type { WorkerStatsSettings } from './worker-stats-options.js';
import { classifyUpdate, type DedupCounterLocation, type WorkerStatsRecorder } from './worker-stats-recorder.js';
import { workerStatsKeys, type WorkerStatsKeys } from './worker-stats-keys.js';
import { insideQueueLevelAdd } from './queue-level-adds.js';
import { ADD_FILTERED, ADD_PRESENT, ADD_HANDLED } from '../core/reply-codes.js';

interface Counters {
  handled: number;
  failed: number;
  retried: number;
  alreadyPresent: number;
}

const zero = (): Counters => ({ handled: 0, failed: 0, retried: 0, alreadyPresent: 0 });

/** What a publisher needs from its queue client. */
export interface WorkerStatsSource {
  readonly connection: ConnectionHandle;
  readonly keys: QueueKeys;
  readonly clientKey: string;
  /** Locks the client holds right now. */
  readonly lockCount: () => number;
  /** Clock offset for the script (tests only). */
  readonly clockOffsetMs: () => number;
  /** Heartbeats that found this client's previous one expired (worker liveness); absent: 0. */
  readonly lapses?: () => number;
}

/**
 * Publishes one queue client's worker record (`{p:rq:name}:worker:<id>`, a hash with a TTL, plus its id in the
 * `:workers` sorted set by last seen) and adds its counters to the crawl-wide `:stats` hash. Counters move in
 * memory; one script call per interval writes them, from an unref'd timer that starts at the first lock. A failed
 * publish keeps its deltas for the next one.
 */
export class WorkerStatsPublisher implements WorkerStatsRecorder {
  /** This worker's id: `<host>:<pid>:<random>`. */
  readonly workerId: string;
  private readonly keys: WorkerStatsKeys;
  private readonly totals = zero();
  private pending = zero();
  private dedup: DedupCounterLocation | undefined;
  private dedupSent = false;
  private startedAt = '';
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private closed = false;
  private lastPublishAt = 0;
  private lastDone = 0;

  /**
   * @param source - the queue client's connection, keys and lock count
   * @param settings - interval, TTL and retention in ms
   * @param onStart - told when the first lock starts the timer (the registry tracks started publishers only)
   */
  constructor(
    private readonly source: WorkerStatsSource,
    private readonly settings: WorkerStatsSettings,
    private readonly onStart?: (publisher: WorkerStatsPublisher) => void,
  ) {
    this.workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.keys = workerStatsKeys(source.keys);
  }

  /** True while deltas wait to be written. */
  get dirty(): boolean {
    const p = this.pending;
    return p.handled + p.failed + p.retried + p.alreadyPresent > 0 || (this.dedup !== undefined && !this.dedupSent);
  }

  locked(n: number): void {
    if (this.timer || this.closed || n < 0) return;
    // Started by the first listAndLockHead (even an empty one): helper clients that never lock never publish.
    this.timer = setInterval(() => void this.publish(), this.settings.intervalMs);
    this.timer.unref();
    this.onStart?.(this);
    void this.publish();
  }

  handled(): void {
    this.count('handled', 1);
  }

  duplicates(n: number): void {
    if (n > 0) this.count('alreadyPresent', n);
  }

  failed(): void {
    this.count('failed', 1);
  }

  retried(): void {
    this.count('retried', 1);
  }

  updated(request: { handledAt?: unknown; userData?: unknown }): void {
    this.count(classifyUpdate(request), 1);
  }

  added(codes: readonly number[], dedup?: DedupCounterLocation): void {
    // A RedisRequestQueue counts its own adds (Crawlee's request cache included): see queue-level-adds.ts.
    if (!insideQueueLevelAdd()) {
      let present = 0;
      for (const code of codes) if (code === ADD_PRESENT || code === ADD_HANDLED || code === ADD_FILTERED) present++;
      if (present > 0) this.count('alreadyPresent', present);
    }
    if (dedup && (dedup.key !== this.dedup?.key || dedup.field !== this.dedup.field)) {
      this.dedup = dedup;
      this.dedupSent = false;
    }
  }

  private count(name: keyof Counters, n: number): void {
    this.totals[name] += n;
    this.pending[name] += n;
  }

  /**
   * Writes the record and the counter deltas (one script call). Never throws: a failure is logged at debug level and
   * its deltas wait for the next publish.
   *
   * @param state - `'stopped'` for the last publish of a closing client
   */
  async publish(state: 'running' | 'stopped' = 'running'): Promise<void> {
    if (this.inFlight) await this.inFlight;
    const run = this.write(state);
    this.inFlight = run;
    try {
      await run;
    } finally {
      if (this.inFlight === run) this.inFlight = undefined;
    }
  }

  private async write(state: 'running' | 'stopped'): Promise<void> {
    const deltas = this.pending;
    this.pending = zero();
    const dedup = this.dedup;
    const done = this.totals.handled + this.totals.failed;
    const now = performance.now();
    const elapsed = this.lastPublishAt ? (now - this.lastPublishAt) / 1000 : 0;
    const rate = elapsed > 0 ? (done - this.lastDone) / elapsed : 0;
    const { source, settings, totals } = this;
    try {
      const [, startedAt] = await source.connection.run(() =>
        runPublishScript(source.connection.redis, [this.keys.workers, this.keys.worker(this.workerId), this.keys.crawl], [
          this.workerId,
          // A stopped worker's last record is kept as long as its id stays listed (the retention), so a finished
          // fleet shows as stopped with its final counters instead of turning "dead" one TTL after the end.
          state === 'stopped' ? settings.retentionMs : settings.ttlMs,
          settings.retentionMs,
          String(Math.trunc(source.clockOffsetMs())),
          this.startedAt,
          deltas.handled,
          deltas.failed,
          deltas.retried,
          deltas.alreadyPresent,
          dedup && !this.dedupSent ? dedup.key : '',
          dedup?.field ?? '',
          'host', hostname(),
          'pid', process.pid,
          'clientKey', source.clientKey,
          'handled', totals.handled,
          'failed', totals.failed,
          'retried', totals.retried,
          'alreadyPresent', totals.alreadyPresent,
          'locks', source.lockCount(),
          'lapses', source.lapses?.() ?? 0,
          'rate', rate.toFixed(3),
          'intervalMs', settings.intervalMs,
          'ttlMs', settings.ttlMs,
          'state', state,
        ]),
      );
      this.startedAt = String(startedAt);
      if (dedup) this.dedupSent = true;
      this.lastPublishAt = now;
      this.lastDone = done;
    } catch (error) {
      for (const name of Object.keys(deltas) as Array<keyof Counters>) this.pending[name] += deltas[name];
      log.debug(`crawlee-redis-queue: worker stats publish failed (retried next interval): ${String(error)}`);
    }
  }

  /** True once {@link WorkerStatsPublisher.close} was called (its record says `stopped`). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** True once the first lock started the timer. */
  get started(): boolean {
    return this.timer !== undefined;
  }

  /** Stops the timer and publishes the last counters with `state: stopped` (only if it ever started). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const started = this.started;
    clearInterval(this.timer);
    if (started) await this.publish('stopped');
  }
}

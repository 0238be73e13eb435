import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** Options of the worker stats every queue client publishes (the `workerStats` option of `RedisStorageClient`). */
export interface WorkerStatsOptions {
  /** Seconds between two publishes (one batched script call each, from an unref'd timer). @defaultValue 15 */
  intervalSecs?: number;
  /** Seconds a record lives after its last publish; a worker silent that long shows as dead.
   * Must be more than `intervalSecs`. @defaultValue 3 × `intervalSecs` */
  ttlSecs?: number;
  /** Seconds a dead worker stays listed (as dead) before its id is pruned. @defaultValue 600 */
  deadRetentionSecs?: number;
}

/** Validated worker-stats settings, in milliseconds. */
export interface WorkerStatsSettings {
  readonly intervalMs: number;
  readonly ttlMs: number;
  readonly retentionMs: number;
}

/** Default seconds between two publishes (4 a minute). */
export const DEFAULT_WORKER_STATS_INTERVAL_SECS = 15;

function seconds(name: string, value: number, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new InvalidOptionsError(`workerStats.${name} must be a finite number of seconds, at least ${min} (got ${String(value)})`);
  }
  return Math.round(value * 1000);
}

/**
 * Validates the `workerStats` option.
 *
 * @param option - `false` to publish nothing, `true`/undefined for the defaults, or settings
 * @returns the settings in ms, or undefined when disabled
 * @throws {@link InvalidOptionsError} for a non-number, an interval under 0.1 s, or a TTL not above the interval
 */
export function workerStatsSettings(option: boolean | WorkerStatsOptions | undefined): WorkerStatsSettings | undefined {
  if (option === false) return undefined;
  if (option !== undefined && option !== true && (typeof option !== 'object' || option === null)) {
    throw new InvalidOptionsError(`workerStats must be true, false or { intervalSecs, ttlSecs, deadRetentionSecs } (got ${String(option)})`);
  }
  const options = option === true || option === undefined ? {} : option;
  const intervalMs = seconds('intervalSecs', options.intervalSecs ?? DEFAULT_WORKER_STATS_INTERVAL_SECS, 0.1);
  const ttlMs = options.ttlSecs === undefined ? 3 * intervalMs : seconds('ttlSecs', options.ttlSecs, 0.1);
  if (ttlMs <= intervalMs) {
    throw new InvalidOptionsError(`workerStats.ttlSecs (${ttlMs / 1000}) must be more than intervalSecs (${intervalMs / 1000}), or every worker would flicker dead between publishes`);
  }
  const retentionMs = seconds('deadRetentionSecs', options.deadRetentionSecs ?? 600, 0);
  return { intervalMs, ttlMs, retentionMs: Math.max(retentionMs, ttlMs) };
}

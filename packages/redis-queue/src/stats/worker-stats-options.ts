import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { numberOption } from '../options/option-ranges.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Options of the worker stats every queue client publishes (the `workerStats` option of `RedisStorageClient`). */
export interface WorkerStatsOptions {
  /** Seconds between two publishes (one batched script call each, from an unref'd timer), 0.1 to 86,400.
   * @defaultValue 15 */
  intervalSecs?: number;
  /** Seconds a record lives after its last publish; a worker silent that long shows as dead.
   * Must be more than `intervalSecs`; 0.1 to 604,800 (7 days). @defaultValue 3 × `intervalSecs` */
  ttlSecs?: number;
  /** Seconds a dead worker stays listed (as dead) before its id is pruned, 0 to 2,592,000 (30 days).
   * @defaultValue 600 */
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

function seconds(name: 'intervalSecs' | 'ttlSecs' | 'deadRetentionSecs', value: unknown): number {
  return Math.round(numberOption(`workerStats.${name}`, value) * 1000);
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
  checkKnownOptions<WorkerStatsOptions>('workerStats', options, { intervalSecs: true, ttlSecs: true, deadRetentionSecs: true });
  const intervalMs = seconds('intervalSecs', options.intervalSecs);
  const ttlMs = options.ttlSecs === undefined ? 3 * intervalMs : seconds('ttlSecs', options.ttlSecs);
  if (ttlMs <= intervalMs) {
    throw new InvalidOptionsError(`workerStats.ttlSecs (${ttlMs / 1000}) must be more than intervalSecs (${intervalMs / 1000}), or every worker would flicker dead between publishes`);
  }
  const retentionMs = seconds('deadRetentionSecs', options.deadRetentionSecs);
  return { intervalMs, ttlMs, retentionMs: Math.max(retentionMs, ttlMs) };
}

import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { numberOption } from '../options/option-ranges.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Options of worker liveness (the `liveness` option of `RedisStorageClient`; docs/liveness.md). */
export interface LivenessOptions {
  /** Seconds between two heartbeats of a queue client that holds locks (one small script call each, from an unref'd
   * timer, off the request path), 0.01 to 3600. @defaultValue 1 */
  heartbeatSecs?: number;
  /** Seconds a heartbeat keeps its owner alive (Redis time): a worker silent that long (killed, or its event loop
   * blocked that long) is gone, and its locks return in the next `listAndLockHead` of any worker. At least twice
   * `heartbeatSecs`; 0.05 to 86,400. @defaultValue 5 */
  windowSecs?: number;
}

/** Validated liveness settings, in milliseconds. */
export interface LivenessSettings {
  readonly heartbeatMs: number;
  readonly windowMs: number;
}

/**
 * Validates the `liveness` option.
 *
 * @param option - `false` for no heartbeat (locks last their lock time, as Crawlee's MemoryStorage), `true`/undefined
 *   for the defaults, or settings
 * @returns the settings in ms, or undefined when off
 * @throws {@link InvalidOptionsError} for an unknown key, a value out of range, or a window under twice the
 *   heartbeat interval
 */
export function livenessSettings(option: boolean | LivenessOptions | undefined): LivenessSettings | undefined {
  if (option === false) return undefined;
  if (option !== undefined && option !== true && (typeof option !== 'object' || option === null)) {
    throw new InvalidOptionsError(`liveness must be true, false or { heartbeatSecs, windowSecs } (got ${String(option)})`);
  }
  const options = option === true || option === undefined ? {} : option;
  checkKnownOptions<LivenessOptions>('liveness', options, { heartbeatSecs: true, windowSecs: true });
  const heartbeatMs = Math.round(numberOption('liveness.heartbeatSecs', options.heartbeatSecs) * 1000);
  const windowMs = Math.round(numberOption('liveness.windowSecs', options.windowSecs) * 1000);
  if (windowMs < 2 * heartbeatMs) {
    throw new InvalidOptionsError(
      `liveness.windowSecs (${windowMs / 1000}) must be at least twice heartbeatSecs (${heartbeatMs / 1000}), or one late heartbeat would return a live worker's locks`,
    );
  }
  return { heartbeatMs, windowMs };
}

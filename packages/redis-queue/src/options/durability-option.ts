import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { DurabilitySettings } from '../core/replica-wait.js';
import { integerOption, numberOption } from './option-ranges.js';
import { checkKnownOptions } from './known-options.js';

/** The `durability` option: wait for replicas after the writes that must survive a failover. */
export interface DurabilityOptions {
  /** Replicas that must acknowledge each add, handled mark and reclaim (Redis `WAIT numreplicas`), 1 to 16.
   * @defaultValue 1 */
  replicas?: number;
  /** Seconds a write waits for them (`WAIT` timeout), 0.001 to 3600; after that it throws
   * `ReplicasNotAcknowledgedError`. @defaultValue 1 */
  timeoutSecs?: number;
}

/**
 * Checks the `durability` option.
 * @param value - the option (undefined or false: off; true: the defaults)
 * @returns the settings, or undefined when off
 * @throws {@link InvalidOptionsError} for a value that is not a boolean or an object, or a field out of range
 */
export function durabilitySettings(value: unknown): DurabilitySettings | undefined {
  if (value === undefined || value === false) return undefined;
  const given = value === true ? {} : value;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new InvalidOptionsError(`durability must be true or { replicas, timeoutSecs } (got ${typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`})`);
  }
  checkKnownOptions<DurabilityOptions>('durability', given, { replicas: true, timeoutSecs: true });
  const { replicas, timeoutSecs } = given as DurabilityOptions;
  return {
    replicas: integerOption('durability.replicas', replicas),
    timeoutMs: numberOption('durability.timeoutSecs', timeoutSecs) * 1000,
  };
}

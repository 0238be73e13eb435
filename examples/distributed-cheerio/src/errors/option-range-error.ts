import { UsageError } from './usage-error.js';

/**
 * A numeric option that is not a whole number inside its documented range (README, options table; {@link
 * OPTION_RANGES}). A {@link UsageError}: exit code 2 before anything is started or written.
 */
export class OptionRangeError extends UsageError {
  /**
   * @param option - the flag, e.g. `--lock-secs`
   * @param value - what was given
   * @param min - smallest accepted value
   * @param max - largest accepted value
   * @param hint - why the bound is there / what to do instead
   */
  constructor(
    readonly option: string,
    readonly value: string,
    readonly min: number,
    readonly max: number,
    hint = '',
  ) {
    const range = `range ${min}-${max.toLocaleString('en-US')}`;
    const tooBig = /^\s*\d+\s*$/.test(value) && Number(value) > max;
    super(
      tooBig
        ? `${option} must be at most ${max} (${range}), got "${value}".${hint === '' ? '' : ` ${hint}`}`
        : `${option} must be a whole number >= ${min} (${range}), got "${value}".`,
    );
  }
}

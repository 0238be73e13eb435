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
   * @param fractions - the option takes seconds with up to 3 decimals, not only whole numbers
   */
  constructor(
    readonly option: string,
    readonly value: string,
    readonly min: number,
    readonly max: number,
    hint = '',
    fractions = false,
  ) {
    const range = `range ${min}-${max.toLocaleString('en-US')}`;
    const tooBig = (fractions ? /^\s*\d+(\.\d+)?\s*$/ : /^\s*\d+\s*$/).test(value) && Number(value) > max;
    const kind = fractions ? 'a number of seconds (up to 3 decimals)' : 'a whole number';
    super(
      tooBig
        ? `${option} must be at most ${max} (${range}), got "${value}".${hint === '' ? '' : ` ${hint}`}`
        : `${option} must be ${kind} >= ${min} (${range}), got "${value}".`,
    );
  }
}

import { UsageError } from './usage-error.js';

/** Another run on this machine writes the same `--output` (or `--summary-json`) file right now. Exit code 2. */
export class OutputInUseError extends UsageError {
  /**
   * @param flag - the option
   * @param path - the absolute path
   * @param pid - the process holding it
   */
  constructor(flag: string, path: string, pid: number) {
    super(
      `${flag} ${path} is being written by another run (pid ${pid}): two runs must not share one output file, or one ` +
        `overwrites the other's results. Give this run its own ${flag}, or wait for pid ${pid} to end.`,
    );
  }
}

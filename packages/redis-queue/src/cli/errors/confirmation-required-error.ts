import { CliUsageError } from './cli-usage-error.js';

/** A destructive command ran without `--yes` and without a terminal to ask on, or the answer was not a yes.
 * Exit code 2: nothing was changed. */
export class ConfirmationRequiredError extends CliUsageError {
  /** @param message - what was refused and how to confirm it */
  constructor(message: string) {
    super(message);
    this.name = 'ConfirmationRequiredError';
  }
}

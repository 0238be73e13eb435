/** A command line the CLI cannot run: unknown or missing arguments, bad values, bad input lines. Exit code 2. */
export class CliUsageError extends Error {
  /** Process exit code of usage errors. */
  readonly exitCode = 2;

  /** @param message - what is wrong and how to call the command instead */
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/**
 * Bad command-line input (unknown dedup mode, workers below 1, a missing folder, a malformed URL).
 * The CLI prints the message and exits with code 2 before it starts or writes anything.
 */
export class UsageError extends Error {
  readonly code = 'E_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

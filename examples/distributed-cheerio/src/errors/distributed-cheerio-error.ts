/**
 * Base of the example's own errors: each one says what to do, so the CLI prints its message without a stack trace.
 * One subclass per failure kind, each in its own file (the ioredis layout).
 */
export class DistributedCheerioError extends Error {
  /** Stable code of the failure kind, e.g. `E_REDIS_AUTH`. */
  readonly code: string;

  /**
   * @param code - the failure kind's code
   * @param message - what happened and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

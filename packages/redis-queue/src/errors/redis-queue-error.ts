/** Base class of every error this package throws; `code` is stable and meant for programs. */
export class RedisQueueError extends Error {
  /** Stable machine-readable code, e.g. `'LOCK_LOST'`. */
  readonly code: string;

  /**
   * @param code - stable machine-readable code
   * @param message - what happened and what to do
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

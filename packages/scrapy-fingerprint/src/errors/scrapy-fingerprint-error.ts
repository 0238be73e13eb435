/**
 * Base class of every error this package throws. Catch it to handle all of them at once.
 */
export class ScrapyFingerprintError extends Error {
  /** A stable machine-readable code, e.g. `'INVALID_URL'`. */
  readonly code: string;

  /**
   * @param code - stable machine-readable code
   * @param message - what went wrong and what to do about it
   */
  constructor(code: string, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

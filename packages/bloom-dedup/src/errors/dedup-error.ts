/** Base class of every error this package throws; `code` is stable and safe to switch on. */
export class DedupError extends Error {
  /** Stable machine-readable failure kind. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

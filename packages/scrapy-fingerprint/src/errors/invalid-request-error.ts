import { ScrapyFingerprintError } from './scrapy-fingerprint-error.js';

/**
 * The request (or options) passed in has a value of the wrong type or shape, e.g. a URL that is not a string, a
 * header value that is an object, an unknown recipe. Fix the caller; nothing was computed.
 */
export class InvalidRequestError extends ScrapyFingerprintError {
  /** The field that was wrong, e.g. `'url'`, `'headers.Accept'`, `'recipe'`. */
  readonly field: string;

  /**
   * @param field - the field that was wrong
   * @param message - what was wrong and what is expected instead
   */
  constructor(field: string, message: string) {
    super('INVALID_REQUEST', `Invalid ${field}: ${message}`);
    this.field = field;
  }
}

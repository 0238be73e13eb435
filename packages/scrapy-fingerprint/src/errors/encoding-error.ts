import { ScrapyFingerprintError } from './scrapy-fingerprint-error.js';

/**
 * A text encoding is unknown, or cannot represent a character that had to be encoded with it (Python's
 * `LookupError` / `UnicodeEncodeError`). Use an encoding that covers the text (e.g. `'utf-8'`), or the page's real one.
 */
export class EncodingError extends ScrapyFingerprintError {
  /** The encoding name as given. */
  readonly encoding: string;

  /**
   * @param encoding - the encoding name as given
   * @param message - what could not be encoded or looked up
   */
  constructor(encoding: string, message: string) {
    super('ENCODING_ERROR', `${message} (encoding ${JSON.stringify(encoding)}). Use an encoding that can represent the text, such as "utf-8".`);
    this.encoding = encoding;
  }
}

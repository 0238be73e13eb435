import { ScrapyFingerprintError } from './scrapy-fingerprint-error.js';

/**
 * A host name that IDNA 2003 cannot encode (Python's `UnicodeError` from the `idna` codec): an empty label, a label
 * longer than 63 characters, a prohibited character, a bidi rule violation, an `xn--` prefix on a non-ASCII label.
 * w3lib then keeps the raw host; only {@link idnaEncode} and {@link nameprep} throw this.
 */
export class IdnaError extends ScrapyFingerprintError {
  /**
   * @param message - what could not be encoded
   */
  constructor(message: string) {
    super('IDNA_ERROR', `${message}. The host is not valid under IDNA 2003; w3lib keeps such a host unencoded.`);
  }
}

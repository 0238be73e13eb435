import { ScrapyFingerprintError } from './scrapy-fingerprint-error.js';

/** Why a URL was rejected; each value matches one `ValueError` that Python/Scrapy raise. */
export type InvalidUrlReason =
  | 'missing-scheme'
  | 'invalid-ipv6'
  | 'invalid-bracketed-host'
  | 'invalid-port'
  | 'port-out-of-range'
  | 'invalid-netloc';

/**
 * The URL is one that Scrapy's `Request()` (or w3lib / `urllib.parse`) rejects: a missing scheme, a bad port, a
 * malformed IPv6 literal, a netloc that changes under NFKC. Fix the URL (make it absolute, correct the port) or skip it.
 */
export class InvalidUrlError extends ScrapyFingerprintError {
  /** The URL as given. */
  readonly url: string;
  /** Which rule rejected it. */
  readonly reason: InvalidUrlReason;
  /** The exception text Python raised for the same URL, e.g. `ValueError: Port out of range 0-65535`. */
  readonly pythonError: string;

  /**
   * @param url - the URL as given
   * @param reason - which rule rejected it
   * @param pythonMessage - the text of Python's `ValueError` (without the `ValueError: ` prefix)
   */
  constructor(url: string, reason: InvalidUrlReason, pythonMessage: string) {
    super(
      'INVALID_URL',
      `Scrapy rejects the URL ${JSON.stringify(url)}: ${pythonMessage}. ` +
        (reason === 'missing-scheme'
          ? 'Pass an absolute URL with a scheme (e.g. "https://host/path"); resolve relative links against the page URL first.'
          : 'Correct the host or port part of the URL, or skip this URL.'),
    );
    this.url = url;
    this.reason = reason;
    this.pythonError = `ValueError: ${pythonMessage}`;
  }
}

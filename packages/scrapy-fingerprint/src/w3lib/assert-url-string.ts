import { InvalidRequestError } from '../errors/invalid-request-error.js';

/**
 * Rejects a URL that is not a string (JavaScript callers, `null` from a database, a number) with the package's typed
 * error, before any string method turns it into a bare `TypeError`.
 * @param url - what the caller passed as the URL
 * @param fn - the public function it was passed to, for the message
 * @throws {@link InvalidRequestError} (`field: 'url'`) when `url` is not a string
 */
export function assertUrlString(url: unknown, fn: string): asserts url is string {
  if (typeof url !== 'string') {
    const got = url === null ? 'null' : Array.isArray(url) ? 'array' : typeof url;
    throw new InvalidRequestError('url', `${fn} needs the URL as a string, got ${got}; pass the URL text (e.g. "https://example.com/")`);
  }
}

import { InvalidRequestError } from '../errors/invalid-request-error.js';

/** Longest host key (bytes of a Redis key suffix; a real hostname is at most 253 characters plus a port). */
export const MAX_HOST_KEY_LENGTH = 512;

/**
 * The default host key of a URL: WHATWG `URL.hostname` (lower-cased, IDNA to punycode), plus `:port` when the port
 * is not the scheme's default (`URL.port` is empty for 80 on http and 443 on https). So `http://A.example.com:80/`
 * and `http://a.example.com/` are one host, `http://a.example.com:8080/` another, and subdomains are separate hosts.
 * @param url - an absolute http(s) URL
 * @throws {@link InvalidRequestError} for a URL that cannot be parsed
 */
export function defaultHostKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError(`cannot take the host of ${JSON.stringify(url)}: not an absolute URL`);
  }
  return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
}

/**
 * The host key of a URL with the given function, checked.
 * @param hostKey - the queue's `politeness.hostKey`
 * @param url - the request URL
 * @throws {@link InvalidRequestError} when the function throws or returns anything but a non-empty string of at
 *   most {@link MAX_HOST_KEY_LENGTH} characters
 */
export function hostKeyChecked(hostKey: (url: string) => string, url: string): string {
  let host: unknown;
  try {
    host = hostKey(url);
  } catch (error) {
    if (error instanceof InvalidRequestError) throw error;
    throw new InvalidRequestError(`politeness.hostKey threw for ${JSON.stringify(url)}: ${String(error)}`, { cause: error });
  }
  if (typeof host !== 'string' || host.length === 0 || host.length > MAX_HOST_KEY_LENGTH) {
    throw new InvalidRequestError(
      `politeness.hostKey must return a non-empty string of at most ${MAX_HOST_KEY_LENGTH} characters (got ${JSON.stringify(host)} for ${JSON.stringify(url)})`,
    );
  }
  return host;
}

import { createHash } from 'node:crypto';
import { Request } from 'crawlee';
import type { ScrapyRequestDict } from './scrapy-request-dict.js';

/** The Crawlee request a Scrapy frontier entry becomes (before its uniqueKey is set). */
export interface ScrapyTakeoverRequest {
  url: string;
  method: string;
  /** Header values joined with `, `, names and values decoded as latin-1 (as Scrapy's `Headers` does). */
  headers: Record<string, string>;
  /** The body bytes as UTF-8 text (Crawlee payloads are strings); absent for an empty body. */
  payload?: string;
  userData: {
    /** The Scrapy callback name, so a Crawlee router can route by it (absent for the default `parse`). */
    label?: string;
    /** Everything else Scrapy knew about the request. */
    scrapy: {
      meta: Record<string, unknown>;
      cbKwargs: Record<string, unknown>;
      callback?: string;
      errback?: string;
      priority: number;
      dontFilter: boolean;
      flags: string[];
      encoding: string;
      cookies: unknown;
      requestClass?: string;
    };
  };
  uniqueKey?: string;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Maps a Scrapy request dict to a Crawlee request.
 *
 * @param dict - the Scrapy request
 * @returns the Crawlee request without uniqueKey
 * @throws Error when the URL is not http(s) or the body is not UTF-8 text
 */
export function toCrawleeRequest(dict: ScrapyRequestDict): ScrapyTakeoverRequest {
  if (!/^https?:\/\//i.test(dict.url)) throw new Error(`url ${JSON.stringify(dict.url)} is not http(s)`);
  const headers: Record<string, string> = {};
  for (const [name, values] of dict.headers) headers[name.toString('latin1')] = values.map((v) => v.toString('latin1')).join(', ');
  let payload: string | undefined;
  if (dict.body.length > 0) {
    try {
      payload = UTF8.decode(dict.body);
    } catch {
      throw new Error('body is not UTF-8 text (a Crawlee payload is a string)');
    }
  }
  const { meta, cbKwargs, callback, errback, priority, dontFilter, flags, encoding, cookies, requestClass } = dict;
  return {
    url: dict.url,
    method: dict.method,
    headers,
    ...(payload !== undefined ? { payload } : {}),
    userData: {
      ...(callback ? { label: callback } : {}),
      scrapy: { meta, cbKwargs, callback, errback, priority, dontFilter, flags, encoding, cookies, requestClass },
    },
  };
}

/**
 * The uniqueKey of a taken-over request: the caller's function (e.g. crawlee-scrapy-fingerprint's fingerprint, so
 * the key equals the member Scrapy's dupefilter holds), else Crawlee's default (`new Request(...).uniqueKey`). A
 * `dont_filter` request gets `#dont_filter-<first 12 hex of sha1(raw entry)>` appended: Scrapy would fetch it even
 * when seen, so it must not merge with another entry of the same URL, and a re-run of a batch gives the same key.
 *
 * @param request - the mapped request
 * @param raw - the raw frontier entry
 * @param uniqueKeyOf - the caller's function, or undefined
 * @returns the uniqueKey
 * @throws Error when the function throws or returns an empty key
 */
export function takeoverUniqueKey(
  request: ScrapyTakeoverRequest,
  raw: Buffer,
  uniqueKeyOf: ((request: ScrapyTakeoverRequest) => string) | undefined,
): string {
  const key = uniqueKeyOf
    ? uniqueKeyOf(request)
    : new Request({ url: request.url, method: request.method as 'GET', payload: request.payload }).uniqueKey;
  if (typeof key !== 'string' || key.length === 0) throw new Error('the uniqueKey function returned no key');
  if (!request.userData.scrapy.dontFilter) return key;
  return `${key}#dont_filter-${createHash('sha1').update(raw).digest('hex').slice(0, 12)}`;
}

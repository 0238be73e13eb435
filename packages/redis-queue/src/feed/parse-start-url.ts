import { Request } from 'crawlee';
import { randomUUID } from 'node:crypto';
import { encodeRequest, type EncodedRequest } from '../core/request-codec.js';
import type { UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';

/** A feed item turned into a request, or the reason it cannot be one. */
export type ParsedFeedItem = { kind: 'r'; request: EncodedRequest } | { kind: 'd'; reason: string };

/** The HTTP methods a feed item may name (the ones Crawlee can send). */
export const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'TRACE', 'OPTIONS', 'CONNECT', 'PATCH']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A feed item's bytes as text, or undefined when they are not UTF-8 (both item formats reject those). @param raw - the bytes */
export function decodeFeedText(raw: Buffer): string | undefined {
  try {
    return utf8.decode(raw);
  } catch {
    return undefined;
  }
}

/** True for an absolute http(s) URL. @param value - the text */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** True for a JSON object (not null, not an array). @param value - a parsed JSON value */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fromObject(item: Record<string, unknown>): Record<string, unknown> | string {
  const { url, method, headers, payload, body, userData, meta, uniqueKey } = item;
  if (typeof url !== 'string') return 'JSON object without a string "url"';
  if (!isHttpUrl(url)) return `"url" is not an http(s) URL: ${url.slice(0, 200)}`;
  const options: Record<string, unknown> = { url };
  if (method !== undefined) {
    if (typeof method !== 'string' || !METHODS.has(method.toUpperCase())) return `unsupported "method": ${JSON.stringify(method)}`;
    options.method = method.toUpperCase();
  }
  if (headers !== undefined) {
    if (!isPlainObject(headers) || !Object.values(headers).every((v) => typeof v === 'string')) {
      return '"headers" must be an object of strings';
    }
    options.headers = headers;
  }
  const data = payload ?? body;
  if (data !== undefined) {
    if (typeof data !== 'string') return '"payload" must be a string';
    options.payload = data;
  }
  const user = userData ?? meta;
  if (user !== undefined) {
    if (!isPlainObject(user)) return '"userData" (or "meta") must be an object';
    options.userData = { ...(isPlainObject(meta) ? meta : {}), ...(isPlainObject(userData) ? userData : {}) };
  }
  if (uniqueKey !== undefined) {
    if (typeof uniqueKey !== 'string' || uniqueKey === '') return '"uniqueKey" must be a non-empty string';
    options.uniqueKey = uniqueKey;
  }
  return options;
}

/**
 * Turns one feed item in this package's Crawlee format (`startUrls.format: 'crawlee'`, and the `crawlee-redis seed`
 * command) into a Crawlee request: a plain URL, or a JSON object with `url`
 * and optional `method`, `headers`, `payload` (or scrapy-redis' `body`), `userData` (or scrapy-redis' `meta`) and
 * `uniqueKey`. A JSON string is read as a URL. Anything else (other JSON values, bytes that are not UTF-8, an empty
 * item, a JSON object without a valid url, a URL that is not http(s)) is rejected with the reason.
 *
 * @param raw - the item's bytes
 * @param alwaysEnqueue - give the request a unique uniqueKey so it is never deduplicated (scrapy-redis' feed
 *   requests are `dont_filter=True`)
 * @param uniqueKeyTransform - the queue's registered uniqueKey transform (e.g. the Scrapy fingerprint), applied to
 *   an item without an explicit uniqueKey, exactly as to requests added through the API; without one, Crawlee's
 *   own uniqueKey
 * @param itemTag - with `alwaysEnqueue`, what makes the uniqueKey unique (`<uniqueKey>#feed:<itemTag>`): the same
 *   for every read of one item (a feed claim's id and the item's index, so a replayed claim adds it once); default
 *   a random UUID
 * @returns the encoded request, or the reason for the dead letters
 */
export function parseStartUrlItem(raw: Buffer, alwaysEnqueue: boolean, uniqueKeyTransform?: UniqueKeyTransform, itemTag?: string): ParsedFeedItem {
  let text = decodeFeedText(raw);
  if (text === undefined) return { kind: 'd', reason: 'item is not valid UTF-8' };
  text = text.trim();
  if (text === '') return { kind: 'd', reason: 'empty item' };
  let options: Record<string, unknown> | string;
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    isJson = false;
  }
  if (!isJson) {
    options = isHttpUrl(text) ? { url: text } : `not JSON and not an http(s) URL: ${text.slice(0, 200)}`;
  } else if (typeof parsed === 'string') {
    options = isHttpUrl(parsed) ? { url: parsed } : `JSON string is not an http(s) URL: ${parsed.slice(0, 200)}`;
  } else if (isPlainObject(parsed)) {
    options = fromObject(parsed);
  } else {
    options = `JSON ${parsed === null ? 'null' : Array.isArray(parsed) ? 'array' : typeof parsed} is neither a URL nor an object`;
  }
  if (typeof options === 'string') return { kind: 'd', reason: options };
  return toFeedRequest(options, alwaysEnqueue, uniqueKeyTransform, itemTag);
}

/**
 * The last step of every feed item format: the uniqueKey transform (unless the item names a uniqueKey), Crawlee's
 * `Request`, `alwaysEnqueue`, and the stored encoding.
 *
 * @param options - Crawlee request options read from the item
 * @param alwaysEnqueue - give the request a unique uniqueKey so it is never deduplicated
 * @param uniqueKeyTransform - the queue's registered uniqueKey transform, or undefined
 * @param itemTag - with `alwaysEnqueue`, the suffix that makes the uniqueKey unique (default: a random UUID)
 * @returns the encoded request, or the reason for the dead letters
 */
export function toFeedRequest(options: Record<string, unknown>, alwaysEnqueue: boolean, uniqueKeyTransform?: UniqueKeyTransform, itemTag?: string): ParsedFeedItem {
  try {
    const keyed = uniqueKeyTransform && options.uniqueKey === undefined ? uniqueKeyTransform({ ...options }) : options;
    const request = new Request(keyed as unknown as ConstructorParameters<typeof Request>[0]);
    if (alwaysEnqueue && options.uniqueKey === undefined) request.uniqueKey = `${request.uniqueKey}#feed:${itemTag ?? randomUUID()}`;
    return { kind: 'r', request: encodeRequest(request) };
  } catch (error) {
    return { kind: 'd', reason: `not a valid request: ${(error as Error).message}` };
  }
}

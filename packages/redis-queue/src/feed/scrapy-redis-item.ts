import type { UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import { isIndexKey, topLevelKeys } from './json-key-order.js';
import { decodeFeedText, isHttpUrl, isPlainObject, METHODS, toFeedRequest, type ParsedFeedItem } from './parse-start-url.js';
import { urlencodePairs } from './python-urlencode.js';
import { replaceQuery } from './python-urlsplit.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** w3lib's `safe_url_string` strips C0 controls and spaces around a URL and drops tabs and newlines inside it. */
function stripUrl(url: string): string {
  // eslint-disable-next-line no-control-regex
  return url.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').replace(/[\t\n\r]/g, '');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The form fields of one extra key, as `_urlencode` in scrapy/http/request/form.py expands them; or a reason. */
function fieldPairs(name: string, value: unknown): Array<[string, string]> | string {
  const bad = (what: unknown) =>
    `field "${name}" holds a JSON ${typeName(what)}; scrapy-redis sends every key other than url/method/meta as a form field and accepts only strings (or lists of strings) there`;
  let values: unknown[];
  if (typeof value === 'string') values = [value];
  else if (Array.isArray(value)) values = value;
  else if (isPlainObject(value)) {
    // A dict is "list-like" to Scrapy: its keys become the values (what scrapy-redis really sends).
    const keys = Object.keys(value);
    if (keys.some(isIndexKey)) return `field "${name}" is an object with numeric keys; their order cannot be kept as scrapy-redis keeps it`;
    values = keys;
  } else return bad(value);
  const pairs: Array<[string, string]> = [];
  for (const v of values) {
    if (typeof v !== 'string') return bad(v);
    if (LONE_SURROGATE.test(v) || LONE_SURROGATE.test(name)) return `field "${name}" is not valid Unicode (a lone surrogate)`;
    pairs.push([name, v]);
  }
  return pairs;
}

function fromObject(item: Record<string, unknown>, text: string): Record<string, unknown> | string {
  const { url, method, meta } = item;
  if (url === undefined || url === null) return 'JSON object without "url" (scrapy-redis skips it)';
  if (typeof url !== 'string') return `"url" is a JSON ${typeName(url)}, not a string`;
  const cleanUrl = stripUrl(url);
  if (!isHttpUrl(cleanUrl) || LONE_SURROGATE.test(cleanUrl)) return `"url" is not an http(s) URL: ${url.slice(0, 200)}`;
  const safeUrl = replaceQuery(cleanUrl);
  let upper = 'GET';
  if ('method' in item) {
    if (typeof method !== 'string') return `"method" is a JSON ${typeName(method)}, not a string`;
    upper = method.toUpperCase();
    if (!METHODS.has(upper)) return `unsupported "method": ${JSON.stringify(method)}`;
  }
  let userData: Record<string, unknown> = {};
  // Scrapy's Request keeps `dict(meta) if meta else None`: a falsy meta is an empty one.
  if ('meta' in item && meta !== null && meta !== false && meta !== 0 && meta !== '' && !(Array.isArray(meta) && meta.length === 0)) {
    if (!isPlainObject(meta)) return `"meta" is a JSON ${typeName(meta)}, not an object`;
    userData = meta;
  }
  const fields = topLevelKeys(text).filter((k) => k !== 'url' && k !== 'method' && k !== 'meta');
  const options: Record<string, unknown> = { url: safeUrl, method: upper, userData };
  if (fields.length === 0) return options;
  const pairs: Array<[string, string]> = [];
  for (const name of fields) {
    const expanded = fieldPairs(name, item[name]);
    if (typeof expanded === 'string') return expanded;
    pairs.push(...expanded);
  }
  const form = urlencodePairs(pairs);
  if (upper === 'POST') {
    options.headers = { 'Content-Type': FORM_CONTENT_TYPE };
    options.payload = form;
  } else {
    options.url = replaceQuery(safeUrl, form);
  }
  // Two POSTs to one URL with other bodies are two requests (Crawlee's default uniqueKey ignores the payload).
  if (upper !== 'GET') options.useExtendedUniqueKey = true;
  return options;
}

/**
 * Turns one start-URL feed item into a Crawlee request exactly as scrapy-redis' `RedisMixin.make_request_from_data`
 * (vendored master, spiders.py) builds its Scrapy `FormRequest`, so both fleets fetch the same thing from one feed:
 *
 * - text that is not JSON is a URL (`FormRequest(data)`: GET, spaces around it stripped as w3lib does);
 * - a JSON object: `url` (required; without it scrapy-redis skips the item), `method` (upper-cased; default GET),
 *   `meta` (becomes `userData`); EVERY OTHER KEY is a form field, in the text's key order, urlencoded as Python's
 *   `urlencode(doseq=True)` does (a list gives one field per element; an object gives its keys). For POST the fields
 *   are the body (`Content-Type: application/x-www-form-urlencoded`); for any other method they REPLACE the URL's
 *   query. So `body`, `headers`, `formdata` are not special: `{"body": "x"}` sends the form field `body=x`.
 * - Extension: a JSON string holding a URL is read as that URL (scrapy-redis raises on it).
 *
 * Rejected with the reason (scrapy-redis would raise, or this queue cannot fetch it): bytes that are not UTF-8, other
 * JSON values, a non-string url or method, a URL that is not http(s), a method Crawlee cannot send, a non-object
 * meta, a form field holding a number, boolean, null or nested value, strings with lone surrogates.
 * The URL is kept as written (Scrapy's `safe_url_string` percent-encodes non-ASCII characters; Crawlee encodes them
 * when it fetches). Feed requests are not `dont_filter` here unless `alwaysEnqueue` is set.
 *
 * @param raw - the item's bytes
 * @param alwaysEnqueue - give the request a unique uniqueKey so it is never deduplicated
 * @param uniqueKeyTransform - the queue's registered uniqueKey transform (e.g. the Scrapy fingerprint), or undefined
 * @param itemTag - with `alwaysEnqueue`, the suffix that makes the uniqueKey unique (see `parseStartUrlItem`)
 * @returns the encoded request, or the reason for the dead letters
 */
export function parseScrapyRedisItem(raw: Buffer, alwaysEnqueue: boolean, uniqueKeyTransform?: UniqueKeyTransform, itemTag?: string): ParsedFeedItem {
  const text = decodeFeedText(raw);
  if (text === undefined) return { kind: 'd', reason: 'item is not valid UTF-8' };
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    isJson = false;
  }
  let options: Record<string, unknown> | string;
  if (!isJson) {
    const url = stripUrl(text);
    if (url === '') options = 'empty item';
    else options = isHttpUrl(url) ? { url: replaceQuery(url) } : `not JSON and not an http(s) URL: ${text.slice(0, 200)}`;
  } else if (typeof parsed === 'string') {
    const url = stripUrl(parsed);
    options = isHttpUrl(url) ? { url: replaceQuery(url) } : `JSON string is not an http(s) URL: ${parsed.slice(0, 200)}`;
  } else if (isPlainObject(parsed)) {
    options = fromObject(parsed, text);
  } else {
    options = `JSON ${typeName(parsed)} is neither a URL nor an object (scrapy-redis cannot read it either)`;
  }
  if (typeof options === 'string') return { kind: 'd', reason: options };
  return toFeedRequest(options, alwaysEnqueue, uniqueKeyTransform, itemTag);
}

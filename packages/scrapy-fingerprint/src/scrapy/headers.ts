import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { type BinaryString, bytesToBinary, encodeText, isAscii } from '../python/codecs.js';
import { pyTitle } from '../python/casing.js';

/** One header value as Crawlee or a caller may give it. */
export type HeaderValue = string | number | Uint8Array | null | undefined;

/** Request headers: a name to one value or a list of values (`null` = present with no value). */
export type HeadersInput = Record<string, HeaderValue | readonly HeaderValue[]>;

/**
 * Scrapy's `Headers` (a `CaselessDict`): the key is the UTF-8 of Python `str.title()` of the name, so names that
 * differ only in case merge, their values appended in input order. Values are bytes (binary strings).
 */
export type ScrapyHeaders = Map<BinaryString, BinaryString[]>;

function valueToBytes(name: string, value: HeaderValue, encoding: string): BinaryString {
  if (typeof value === 'string') return encodeText(value, encoding);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new InvalidRequestError(`headers.${name}`, 'a number value must be an integer');
    return String(value);
  }
  if (value instanceof Uint8Array) return bytesToBinary(value);
  throw new InvalidRequestError(`headers.${name}`, 'values must be strings, integers, bytes or arrays of them');
}

// Shared by every request without headers; nothing writes to a built Headers map.
const NO_HEADERS: ScrapyHeaders = new Map();

/**
 * Builds Scrapy's `Headers(headers, encoding)`.
 * @throws {@link InvalidRequestError} for a value of an unsupported type
 */
export function buildHeaders(input: HeadersInput | undefined, encoding: string): ScrapyHeaders {
  if (!input) return NO_HEADERS;
  const headers: ScrapyHeaders = new Map();
  for (const [name, raw] of Object.entries(input)) {
    const key = encodeText(pyTitle(name), encoding);
    let list = headers.get(key);
    if (!list) headers.set(key, (list = []));
    if (raw === null || raw === undefined) continue;
    if (Array.isArray(raw)) {
      for (const v of raw as readonly HeaderValue[]) list.push(valueToBytes(name, v, encoding));
    } else list.push(valueToBytes(name, raw as HeaderValue, encoding));
  }
  return headers;
}

/**
 * Raises what building the headers would raise (a value of a wrong type, a string the encoding cannot represent),
 * without building them: the fingerprint only needs the headers it includes, and by default none.
 * @throws {@link InvalidRequestError} for a value of an unsupported type
 * @throws {@link EncodingError} for a value the encoding cannot represent
 */
export function checkHeaders(input: HeadersInput | undefined, encoding: string): void {
  if (!input) return;
  for (const name in input) {
    if (!Object.prototype.hasOwnProperty.call(input, name)) continue;
    if (!isAscii(name)) encodeText(pyTitle(name), encoding);
    const raw = input[name];
    if (raw === null || raw === undefined) continue;
    const values = Array.isArray(raw) ? (raw as readonly HeaderValue[]) : [raw as HeaderValue];
    for (const v of values) {
      if (typeof v === 'string') {
        if (!isAscii(v)) encodeText(v, encoding);
      } else valueToBytes(name, v, encoding);
    }
  }
}

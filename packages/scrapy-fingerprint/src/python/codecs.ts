import iconv from 'iconv-lite';
import { EncodingError } from '../errors/encoding-error.js';

/**
 * Text in this package is carried as "binary strings": one JS char per byte (code 0-255). They compare, slice and
 * concatenate like Python `bytes`, and cost nothing to build for ASCII text.
 */
export type BinaryString = string;

// eslint-disable-next-line no-control-regex -- Python and w3lib define these sets by C0 code points
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UTF8_NAMES = new Set(['utf8', 'utf-8', 'utf_8', 'u8', 'utf', 'cp65001']);

const utf8Memo = new Map<string, boolean>();

/** Python's codec lookup is case-insensitive and treats `-`, `_` and spaces alike. */
export function isUtf8(encoding: string): boolean {
  if (encoding === 'utf-8' || encoding === 'utf8') return true;
  let known = utf8Memo.get(encoding);
  if (known === undefined) {
    known = UTF8_NAMES.has(encoding.toLowerCase().replace(/[\s_]/g, '-').replace(/^utf-?8$/, 'utf-8'));
    utf8Memo.set(encoding, known);
  }
  return known;
}

/** Raised when a string cannot be encoded (Python's `UnicodeEncodeError`), caught where w3lib catches it. */
export class UnicodeEncodeFailure extends EncodingError {}

/** True for ASCII-only text (the common case, where every encoding is the identity). */
export function isAscii(s: string): boolean {
  return ASCII_ONLY.test(s);
}

/**
 * Python `str.encode(encoding)` with `errors='strict'`, returned as a binary string.
 * @throws {@link UnicodeEncodeFailure} when a character cannot be represented (or is a lone surrogate)
 * @throws {@link EncodingError} when the encoding is unknown
 */
export function encodeText(s: string, encoding: string = 'utf-8'): BinaryString {
  if (isAscii(s) && (isUtf8(encoding) || iconvAsciiCompatible(encoding))) return s;
  if (isUtf8(encoding)) {
    if (LONE_SURROGATE.test(s)) throw new UnicodeEncodeFailure(encoding, 'A lone surrogate cannot be encoded');
    return Buffer.from(s, 'utf8').toString('latin1');
  }
  if (!iconv.encodingExists(encoding)) throw new EncodingError(encoding, 'Unknown encoding');
  const bytes = iconv.encode(s, encoding);
  // iconv-lite substitutes unencodable characters silently; Python raises. A round trip tells them apart.
  if (iconv.decode(bytes, encoding) !== s) {
    throw new UnicodeEncodeFailure(encoding, `Cannot encode ${JSON.stringify(s)}`);
  }
  return bytes.toString('latin1');
}

const asciiCompatible = new Map<string, boolean>();
function iconvAsciiCompatible(encoding: string): boolean {
  let known = asciiCompatible.get(encoding);
  if (known === undefined) {
    if (!iconv.encodingExists(encoding)) throw new EncodingError(encoding, 'Unknown encoding');
    const probe = ' azAZ09~%';
    known = iconv.encode(probe, encoding).toString('latin1') === probe;
    asciiCompatible.set(encoding, known);
  }
  return known;
}

/**
 * Python `str.encode(encoding)` (strict) as bytes, for request bodies.
 * @throws {@link UnicodeEncodeFailure} when a character cannot be represented
 */
export function encodeToBuffer(s: string, encoding: string = 'utf-8'): Buffer {
  if (isUtf8(encoding)) {
    if (LONE_SURROGATE.test(s)) throw new UnicodeEncodeFailure(encoding, 'A lone surrogate cannot be encoded');
    return Buffer.from(s, 'utf8');
  }
  return Buffer.from(encodeText(s, encoding), 'latin1');
}

/** Python `bytes.decode('utf-8', 'replace')` of a binary string. */
export function decodeUtf8Replace(bin: BinaryString): string {
  if (isAscii(bin)) return bin;
  return Buffer.from(bin, 'latin1').toString('utf8');
}

/**
 * Python `bytes.decode('utf-8')` (strict) of a binary string.
 * @throws {@link EncodingError} on invalid UTF-8
 */
export function decodeUtf8Strict(bin: BinaryString): string {
  if (isAscii(bin)) return bin;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(bin, 'latin1'));
  } catch {
    throw new EncodingError('utf-8', 'The URL bytes are not valid UTF-8');
  }
}

/** Bytes (Uint8Array or Buffer) as a binary string. */
export function bytesToBinary(bytes: Uint8Array): BinaryString {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Python `bytes.hex()` of a binary string. */
export function binaryToHex(bin: BinaryString): string {
  if (bin.length > 32) return Buffer.from(bin, 'latin1').toString('hex');
  let out = '';
  for (let i = 0; i < bin.length; i++) out += HEX[bin.charCodeAt(i)]!;
  return out;
}

import type { BinaryString } from '../python/codecs.js';
import { PATH_SAFE } from './safe-chars.js';

const HEXVAL = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEXVAL[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEXVAL[65 + i] = 10 + i;
  HEXVAL[97 + i] = 10 + i;
}
const HEXDIGITS = '0123456789ABCDEF';
const SAFE = PATH_SAFE.bytes;
let scratch = Buffer.allocUnsafe(4096);

/** The byte a `%XX` at `i` stands for, or -1 when `i` does not start a valid escape (unquote_to_bytes' rule). */
function escapeAt(s: string, i: number, n: number): number {
  if (i + 2 >= n) return -1;
  const a = s.charCodeAt(i + 1);
  const b = s.charCodeAt(i + 2);
  const h = a < 128 ? HEXVAL[a]! : -1;
  const l = b < 128 ? HEXVAL[b]! : -1;
  return h >= 0 && l >= 0 ? (h << 4) | l : -1;
}

/** Whether a decoded byte comes back escaped: `%2F` and `%3F` are kept, and bytes outside the path safe set. */
const staysEscaped = (byte: number): boolean => byte === 0x2f || byte === 0x3f || SAFE[byte] !== 1;

/**
 * w3lib's canonical path in one pass: `quote(_unquotepath(path), _path_safe_chars)`, i.e. every valid `%XX` escape
 * is decoded to its byte except `%2F` and `%3F` (w3lib 2.4.1 `_unquotepath`), then every byte outside the path safe
 * set is escaped with upper-case hex. Decoding and re-encoding byte by byte gives the same text as the two passes
 * (`unquote_to_bytes` never re-reads a byte it produced), and most paths come back unchanged, which is found
 * without building a string.
 * @param path - the path as a binary string
 * @returns the canonical path (not yet `/` for an empty one)
 */
export function canonicalPath(path: BinaryString): string {
  const n = path.length;
  let i = 0;
  for (; i < n; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x25) {
      const byte = escapeAt(path, i, n);
      if (byte < 0) continue; // a bare `%` is safe
      // Unchanged only when the byte is escaped again, with the same (upper-case) digits.
      if (!staysEscaped(byte) || path.charCodeAt(i + 1) >= 0x61 || path.charCodeAt(i + 2) >= 0x61) break;
      i += 2;
    } else if (SAFE[c] !== 1) break;
  }
  if (i === n) return path;
  if (scratch.length < n * 3) scratch = Buffer.allocUnsafe(Math.max(n * 3, scratch.length * 2));
  const out = scratch;
  let o = out.write(path.slice(0, i), 0, 'latin1');
  while (i < n) {
    let byte = path.charCodeAt(i);
    let escaped = false;
    if (byte === 0x25) {
      const decoded = escapeAt(path, i, n);
      if (decoded >= 0) {
        byte = decoded;
        escaped = true;
        i += 3;
      } else i++;
    } else i++;
    if (escaped ? staysEscaped(byte) : SAFE[byte] !== 1) {
      out[o++] = 0x25;
      out[o++] = HEXDIGITS.charCodeAt(byte >> 4);
      out[o++] = HEXDIGITS.charCodeAt(byte & 15);
    } else out[o++] = byte;
  }
  return out.toString('latin1', 0, o);
}

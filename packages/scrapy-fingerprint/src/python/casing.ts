import { TITLE_CASE } from '../idna/nameprep-data.js';
import { parseMultiMap } from '../idna/tables.js';

const CASED = /\p{Cased}/u;
// eslint-disable-next-line no-control-regex -- the ASCII range
const ASCII = /^[\x00-\x7f]*$/;
let titleMap: Map<number, string> | undefined;

/** Python `str.upper()` (full Unicode mapping, `ß` → `SS`); JS implements the same unconditional mappings. */
export function pyUpper(s: string): string {
  return s.toUpperCase();
}

/** Python `str.lower()`. */
export function pyLower(s: string): string {
  return s.toLowerCase();
}

/**
 * Python `str.title()`: a cased character after a cased one is lower-cased, any other is title-cased (Python's
 * title case differs from upper case for a few characters such as `ǆ` and `ß`; those come from the generated table).
 */
export function pyTitle(s: string): string {
  if (ASCII.test(s)) return bytesTitle(s); // ASCII: str.title() and bytes.title() agree
  titleMap ??= parseMultiMap(TITLE_CASE);
  let out = '';
  let previousCased = false;
  for (const ch of s) {
    if (previousCased) out += ch.toLowerCase();
    else out += titleMap.get(ch.codePointAt(0)!) ?? ch.toUpperCase();
    previousCased = CASED.test(ch);
  }
  return out;
}

/** Python `bytes.title()` on a binary string: ASCII letters only, any other byte is uncased. */
export function bytesTitle(bin: string): string {
  // Most header names are already title-cased ("Accept-Language"): detect that without building a new string.
  let previous = false;
  let i = 0;
  for (; i < bin.length; i++) {
    const c = bin.charCodeAt(i);
    const upper = c >= 0x41 && c <= 0x5a;
    const lower = c >= 0x61 && c <= 0x7a;
    if (previous ? upper : lower) break;
    previous = upper || lower;
  }
  if (i === bin.length) return bin;
  let out = '';
  let previousCased = false;
  for (let i = 0; i < bin.length; i++) {
    const c = bin.charCodeAt(i);
    const upper = c >= 0x41 && c <= 0x5a;
    const lower = c >= 0x61 && c <= 0x7a;
    if (previousCased) out += upper ? String.fromCharCode(c + 32) : bin[i];
    else out += lower ? String.fromCharCode(c - 32) : bin[i];
    previousCased = upper || lower;
  }
  return out;
}

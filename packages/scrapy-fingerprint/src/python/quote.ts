import type { BinaryString } from './codecs.js';

/** The bytes `quote` writes as themselves: a lookup table, and a regex that finds the first other one. */
export interface SafeTable {
  readonly bytes: Uint8Array;
  readonly unsafe: RegExp;
}

const ALWAYS_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~';

/** Python `urllib.parse.quote`'s safe set: always `A-Z a-z 0-9 _ . - ~`, plus `extra`. */
export function safeTable(extra: string): SafeTable {
  const bytes = new Uint8Array(256);
  for (const c of ALWAYS_SAFE + extra) bytes[c.charCodeAt(0)] = 1;
  // Native regex scanning is about three times faster than a JS loop on long URLs; most strings need no quoting.
  let cls = '';
  for (let b = 0; b < 128; b++) if (bytes[b]) cls += '\\x' + b.toString(16).padStart(2, '0');
  return { bytes, unsafe: new RegExp(`[^${cls}]`) };
}

/** Index of the first byte outside the safe set, or -1: a JS loop for short strings, native regex for long ones. */
function firstUnsafe(bin: string, safe: SafeTable): number {
  const n = bin.length;
  if (n > 24) return bin.search(safe.unsafe);
  const table = safe.bytes;
  for (let i = 0; i < n; i++) if (table[bin.charCodeAt(i)] !== 1) return i;
  return -1;
}

const ESCAPES = Array.from({ length: 256 }, (_, i) => '%' + i.toString(16).toUpperCase().padStart(2, '0'));

/** Python `quote_from_bytes(bytes, safe)`: uppercase `%XX` for every byte outside the safe set. */
export function quoteBinary(bin: BinaryString, safe: SafeTable): string {
  const n = bin.length;
  let i = firstUnsafe(bin, safe);
  if (i < 0) return bin;
  if (n - i > LONG) return quoteLong(bin, i, safe.bytes, false);
  const table = safe.bytes;
  let out = bin.slice(0, i);
  for (; i < n; i++) {
    const b = bin.charCodeAt(i);
    out += table[b] === 1 ? bin[i] : ESCAPES[b];
  }
  return out;
}

const PLUS_SAFE = safeTable('');

// Past this many characters, write bytes into a buffer instead of concatenating strings (long URLs, big queries).
const LONG = 64;
const HEXDIGITS = '0123456789ABCDEF';
let scratch = Buffer.allocUnsafe(4096);

function reserve(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  return scratch;
}

function quoteLong(bin: string, from: number, safe: Uint8Array, plus: boolean): string {
  const n = bin.length;
  const out = reserve(from + (n - from) * 3);
  let o = out.write(bin.slice(0, from), 0, 'latin1');
  for (let i = from; i < n; i++) {
    const b = bin.charCodeAt(i);
    if (safe[b] === 1) out[o++] = b;
    else if (plus && b === 0x20) out[o++] = 0x2b;
    else {
      out[o++] = 0x25;
      out[o++] = HEXDIGITS.charCodeAt(b >> 4);
      out[o++] = HEXDIGITS.charCodeAt(b & 15);
    }
  }
  return out.toString('latin1', 0, o);
}

/** Python `quote_plus(bytes, safe='')`: like {@link quoteBinary} with an empty safe set, and space as `+`. */
export function quotePlusBinary(bin: BinaryString): string {
  const n = bin.length;
  let i = firstUnsafe(bin, PLUS_SAFE);
  if (i < 0) return bin;
  const table = PLUS_SAFE.bytes;
  if (n - i > LONG) return quoteLong(bin, i, table, true);
  let out = bin.slice(0, i);
  for (; i < n; i++) {
    const b = bin.charCodeAt(i);
    out += table[b] === 1 ? bin[i] : b === 0x20 ? '+' : ESCAPES[b];
  }
  return out;
}

const HEXVAL = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEXVAL[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEXVAL[65 + i] = 10 + i;
  HEXVAL[97 + i] = 10 + i;
}

function hexAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? HEXVAL[c]! : -1;
}

/**
 * Python `unquote_to_bytes` on a binary string (the str case encodes to UTF-8 first; callers do that):
 * every `%XX` with two hex digits becomes that byte, anything else stays literally.
 */
export function unquoteBinary(bin: BinaryString): BinaryString {
  let i = bin.indexOf('%');
  if (i < 0) return bin;
  if (bin.length - i > LONG) return unquoteLong(bin, i);
  let out = bin.slice(0, i);
  const n = bin.length;
  while (i < n) {
    const c = bin[i]!;
    if (c === '%' && i + 2 < n) {
      const h = hexAt(bin, i + 1);
      const l = hexAt(bin, i + 2);
      if (h >= 0 && l >= 0) {
        out += String.fromCharCode((h << 4) | l);
        i += 3;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

function unquoteLong(bin: string, from: number): string {
  const n = bin.length;
  const out = reserve(n);
  let o = out.write(bin.slice(0, from), 0, 'latin1');
  let i = from;
  while (i < n) {
    const c = bin.charCodeAt(i);
    if (c === 0x25 && i + 2 < n) {
      const h = hexAt(bin, i + 1);
      const l = hexAt(bin, i + 2);
      if (h >= 0 && l >= 0) {
        out[o++] = (h << 4) | l;
        i += 3;
        continue;
      }
    }
    out[o++] = c;
    i++;
  }
  return out.toString('latin1', 0, o);
}

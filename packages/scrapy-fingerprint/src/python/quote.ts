import type { BinaryString } from './codecs.js';

/** A 256-entry table: 1 where the byte is written as itself by `quote`. */
export type SafeTable = Uint8Array;

const ALWAYS_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~';

/** Python `urllib.parse.quote`'s safe set: always `A-Z a-z 0-9 _ . - ~`, plus `extra`. */
export function safeTable(extra: string): SafeTable {
  const table = new Uint8Array(256);
  for (const c of ALWAYS_SAFE + extra) table[c.charCodeAt(0)] = 1;
  return table;
}

const ESCAPES = Array.from({ length: 256 }, (_, i) => '%' + i.toString(16).toUpperCase().padStart(2, '0'));

/** Python `quote_from_bytes(bytes, safe)`: uppercase `%XX` for every byte outside the safe set. */
export function quoteBinary(bin: BinaryString, safe: SafeTable): string {
  const n = bin.length;
  let i = 0;
  while (i < n && safe[bin.charCodeAt(i)] === 1) i++;
  if (i === n) return bin;
  let out = bin.slice(0, i);
  for (; i < n; i++) {
    const b = bin.charCodeAt(i);
    out += safe[b] === 1 ? bin[i] : ESCAPES[b];
  }
  return out;
}

const PLUS_SAFE = safeTable('');

/** Python `quote_plus(bytes, safe='')`: like {@link quoteBinary} with an empty safe set, and space as `+`. */
export function quotePlusBinary(bin: BinaryString): string {
  const n = bin.length;
  let out = '';
  for (let i = 0; i < n; i++) {
    const b = bin.charCodeAt(i);
    out += PLUS_SAFE[b] === 1 ? bin[i] : b === 0x20 ? '+' : ESCAPES[b];
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

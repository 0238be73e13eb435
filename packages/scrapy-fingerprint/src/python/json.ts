const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

function firstEscape(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return i;
  }
  return -1;
}

/**
 * Whether {@link pyJsonString} would escape anything in `s`.
 * @param s - the text
 * @returns true when `s` has a character outside U+0020-U+007E, a `"` or a `\`
 */
export function needsJsonEscape(s: string): boolean {
  return (s.length > 24 ? s.search(NEEDS_ESCAPE) : firstEscape(s)) >= 0;
}

/**
 * A JSON string literal exactly as Python's `json.dumps` writes it with `ensure_ascii=True`: `\"`, `\\`, the short
 * escapes `\n \r \t \b \f`, and `\u00xx` (lowercase hex) for everything outside U+0020-U+007E, non-BMP characters as
 * surrogate pairs. `/` is not escaped.
 */
export function pyJsonString(s: string): string {
  let i = s.length > 24 ? s.search(NEEDS_ESCAPE) : firstEscape(s);
  if (i < 0) return '"' + s + '"';
  let out = '"';
  let start = 0;
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      default: out += '\\u' + c.toString(16).padStart(4, '0');
    }
  }
  return out + s.slice(start) + '"';
}

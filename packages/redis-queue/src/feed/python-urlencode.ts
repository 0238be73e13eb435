// Python's `urllib.parse.urlencode(pairs, doseq=True)` over UTF-8 bytes, as Scrapy's FormRequest calls it
// (scrapy/http/request/form.py `_urlencode`): `quote_plus` with safe='' keeps A-Z a-z 0-9 `_.-~`, turns a space into
// `+`, and writes every other byte as %XX (upper-case hex).

const SAFE = /[A-Za-z0-9_.\-~]/;
const encoder = new TextEncoder();

/** `quote_plus(value.encode('utf-8'), safe='')`. @param value - a well-formed string */
export function quotePlus(value: string): string {
  let out = '';
  for (const byte of encoder.encode(value)) {
    const char = String.fromCharCode(byte);
    if (byte < 0x80 && SAFE.test(char)) out += char;
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `urlencode([(k, v), ...], doseq=True)` for string pairs. @param pairs - name/value pairs in order */
export function urlencodePairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&');
}

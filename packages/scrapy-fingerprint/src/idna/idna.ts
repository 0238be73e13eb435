import punycode from 'punycode/punycode.js';
import { isAscii } from '../python/codecs.js';
import { IdnaError } from '../errors/idna-error.js';
import { tryNameprep } from './nameprep.js';

const DOTS = /[.\u3002\uff0e\uff61]/;

/** RFC 3490 ToASCII for one label, as Python's `encodings.idna.ToASCII` (AllowUnassigned, no STD3 rules). */
function toAscii(label: string): string | null {
  if (isAscii(label)) return label.length > 0 && label.length < 64 ? label : null;
  let prepped = tryNameprep(label);
  if (prepped === null) return null;
  if (isAscii(prepped)) return prepped.length > 0 && prepped.length < 64 ? prepped : null;
  if (prepped.startsWith('xn--')) return null; // "Label starts with ACE prefix"
  prepped = 'xn--' + punycode.encode(prepped);
  return prepped.length < 64 ? prepped : null;
}

/**
 * Python's `str.encode('idna')` (IDNA 2003), or `null` where Python raises `UnicodeError`. An all-ASCII name only
 * has its label lengths checked (no lower-casing, no validation); otherwise the name is split on `. 。 ． ｡` and each
 * label goes through nameprep and punycode.
 * @param input - a host name (or, as w3lib's canonicalize_url does, a whole netloc)
 * @param knownAscii - the caller already knows `input` is ASCII
 * @returns the ASCII form, or `null` on failure (empty or too long label, prohibited character, bidi violation)
 */
export function tryIdnaEncode(input: string, knownAscii = false): string | null {
  if (!input) return '';
  if (knownAscii || isAscii(input)) {
    // Labels between dots must be 1-63 characters; the last may be empty (a trailing dot) but not 64 or longer.
    let start = 0;
    for (;;) {
      const dot = input.indexOf('.', start);
      if (dot < 0) return input.length - start >= 64 ? null : input;
      const len = dot - start;
      if (len === 0 || len >= 64) return null;
      start = dot + 1;
    }
  }
  const cached = cache.get(input);
  if (cached !== undefined) return cached;
  const result = encodeLabels(input);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(input, result);
  return result;
}

// Non-ASCII hosts repeat across a crawl and nameprep is the slowest step, so results are kept for a while (as
// w3lib's master branch does with an lru_cache). ASCII names never reach here.
const CACHE_SIZE = 2048;
const cache = new Map<string, string | null>();

function encodeLabels(input: string): string | null {
  const labels = input.split(DOTS);
  let trailingDot = '';
  if (labels.length > 0 && labels[labels.length - 1] === '') {
    trailingDot = '.';
    labels.pop();
  }
  let out = '';
  for (let i = 0; i < labels.length; i++) {
    const ascii = toAscii(labels[i]!);
    if (ascii === null) return null;
    out += i === 0 ? ascii : '.' + ascii;
  }
  return out + trailingDot;
}

/**
 * Python's `str.encode('idna')` (IDNA 2003), returned as a string.
 * @param input - a host name
 * @returns the ASCII form
 * @throws {@link IdnaError} where Python raises `UnicodeError`
 */
export function idnaEncode(input: string): string {
  const out = tryIdnaEncode(input);
  if (out === null) throw new IdnaError(`IDNA 2003 cannot encode ${JSON.stringify(input)}`);
  return out;
}

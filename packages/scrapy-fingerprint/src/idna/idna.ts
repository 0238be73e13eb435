import punycode from 'punycode/punycode.js';
import { isAscii } from '../python/codecs.js';
import { IdnaError, nameprep } from './nameprep.js';

const DOTS = /[.\u3002\uff0e\uff61]/;

/** RFC 3490 ToASCII for one label, as Python's `encodings.idna.ToASCII` (AllowUnassigned, no STD3 rules). */
function toAscii(label: string): string {
  if (isAscii(label)) {
    if (label.length > 0 && label.length < 64) return label;
    throw new IdnaError('label empty or too long');
  }
  let prepped = nameprep(label);
  if (isAscii(prepped)) {
    if (prepped.length > 0 && prepped.length < 64) return prepped;
    throw new IdnaError('label empty or too long');
  }
  if (prepped.startsWith('xn--')) throw new IdnaError('Label starts with ACE prefix');
  prepped = 'xn--' + punycode.encode(prepped);
  if (prepped.length < 64) return prepped;
  throw new IdnaError('label empty or too long');
}

/**
 * Python's `str.encode('idna')` (IDNA 2003), returned as a string. An all-ASCII name only has its label lengths
 * checked (no lower-casing, no validation); otherwise the name is split on `. 。 ． ｡` and each label goes through
 * nameprep and punycode.
 * @throws {@link IdnaError} where Python raises `UnicodeError`
 */
export function idnaEncode(input: string): string {
  if (!input) return '';
  if (isAscii(input)) {
    const labels = input.split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const len = labels[i]!.length;
      if (len === 0 || len >= 64) throw new IdnaError('label empty or too long');
    }
    if (labels[labels.length - 1]!.length >= 64) throw new IdnaError('label too long');
    return input;
  }
  const labels = input.split(DOTS);
  let trailingDot = '';
  if (labels.length > 0 && labels[labels.length - 1] === '') {
    trailingDot = '.';
    labels.pop();
  }
  return labels.map(toAscii).join('.') + trailingDot;
}

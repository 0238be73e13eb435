import { ASSIGNED_3_2, B1, B2_MULTI, B2_RUNS, D1, D2, NFKC_3_2_FIX, PROHIBITED } from './nameprep-data.js';
import { addRuns, parseMultiMap, RangeSet } from './tables.js';

import { IdnaError } from '../errors/idna-error.js';

interface Tables {
  b1: RangeSet;
  b2: Map<number, string>;
  prohibited: RangeSet;
  randAL: RangeSet;
  l: RangeSet;
  assigned: RangeSet;
  nfkcFix: Map<number, string>;
}

let tables: Tables | undefined;

// Decoded on first use: most URLs have ASCII hosts and never get here.
function load(): Tables {
  if (!tables) {
    const b2 = parseMultiMap(B2_MULTI);
    addRuns(b2, B2_RUNS);
    tables = {
      b1: new RangeSet(B1),
      b2,
      prohibited: new RangeSet(PROHIBITED),
      randAL: new RangeSet(D1),
      l: new RangeSet(D2),
      assigned: new RangeSet(ASSIGNED_3_2),
      nfkcFix: parseMultiMap(NFKC_3_2_FIX),
    };
  }
  return tables;
}

/**
 * NFKC as of Unicode 3.2 (Python's `unicodedata.ucd_3_2_0.normalize`). Code points unassigned in 3.2 are inert
 * there (no decomposition, class 0, never composed), so the label is split at them and the pieces between are
 * normalized with today's data, which agrees with 3.2 for every 3.2 character except the corrigenda in the table.
 */
export function nfkc32(s: string): string {
  const t = load();
  let out = '';
  let piece = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (!t.assigned.has(cp)) {
      out += piece.normalize('NFKC') + ch;
      piece = '';
    } else {
      piece += t.nfkcFix.get(cp) ?? ch;
    }
  }
  return out + piece.normalize('NFKC');
}

/**
 * RFC 3491 nameprep as Python's `encodings.idna.nameprep` does it (AllowUnassigned): map B.1 to nothing, case-fold
 * with B.2, NFKC of Unicode 3.2, refuse C.1.2-C.9, check the bidi rules of RFC 3454 section 6.
 * @param label - one label of a host name
 * @returns the prepared label
 * @throws {@link IdnaError} on a prohibited character or a bidi violation
 */
export function nameprep(label: string): string {
  const out = tryNameprep(label);
  if (out === null) throw new IdnaError(`nameprep refuses ${JSON.stringify(label)} (prohibited character or bidi rule)`);
  return out;
}

/** {@link nameprep}, returning `null` instead of throwing (no stack trace to build on the hot path). */
export function tryNameprep(label: string): string | null {
  const t = load();
  let mapped = '';
  for (const ch of label) {
    const cp = ch.codePointAt(0)!;
    if (t.b1.has(cp)) continue;
    mapped += t.b2.get(cp) ?? ch;
  }
  const normalized = nfkc32(mapped);
  const cps = Array.from(normalized, (ch) => ch.codePointAt(0)!);
  for (const cp of cps) {
    if (t.prohibited.has(cp)) return null;
  }
  if (cps.some((cp) => t.randAL.has(cp))) {
    if (cps.some((cp) => t.l.has(cp))) return null; // bidi requirement 2
    if (!t.randAL.has(cps[0]!) || !t.randAL.has(cps[cps.length - 1]!)) return null; // bidi requirement 3
  }
  return normalized;
}

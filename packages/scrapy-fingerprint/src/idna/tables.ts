/**
 * Decoders for the compact tables in `nameprep-data.ts` (format documented in `scripts/gen-nameprep.py`).
 */

/** A sorted set of code point ranges with a binary-search membership test. */
export class RangeSet {
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;

  /** @param encoded - `gap.len,...` in base 36 */
  constructor(encoded: string) {
    const parts = encoded ? encoded.split(',') : [];
    this.starts = new Uint32Array(parts.length);
    this.ends = new Uint32Array(parts.length);
    let prevEnd = -1;
    parts.forEach((part, i) => {
      const [gap, len] = part.split('.');
      const start = prevEnd + 1 + parseInt(gap!, 36);
      const end = start + parseInt(len!, 36);
      this.starts[i] = start;
      this.ends[i] = end;
      prevEnd = end;
    });
  }

  /** @returns whether `cp` lies in one of the ranges */
  has(cp: number): boolean {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (cp < this.starts[mid]!) hi = mid - 1;
      else if (cp > this.ends[mid]!) lo = mid + 1;
      else return true;
    }
    return false;
  }
}

/** Decodes `cp:hex hex;...` (base 36) into code point → string. */
export function parseMultiMap(encoded: string): Map<number, string> {
  const map = new Map<number, string>();
  if (!encoded) return map;
  for (const entry of encoded.split(';')) {
    const [cp, targets] = entry.split(':');
    map.set(parseInt(cp!, 36), String.fromCodePoint(...targets!.split(' ').map((t) => parseInt(t, 36))));
  }
  return map;
}

/** Decodes B.2 runs (`gap.count.stride.offset`) into `map`. */
export function addRuns(map: Map<number, string>, encoded: string): void {
  let start = 0;
  for (const run of encoded.split(',')) {
    const [gap, count, stride, offset] = run.split('.').map((x) => parseInt(x, 36)) as [number, number, number, number];
    start += gap;
    for (let k = 0; k < count; k++) {
      const cp = start + k * stride;
      map.set(cp, String.fromCodePoint(cp + offset));
    }
  }
}

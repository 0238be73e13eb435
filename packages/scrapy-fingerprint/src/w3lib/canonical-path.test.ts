import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteBinary, unquoteBinary } from '../python/quote.js';
import { canonicalPath } from './canonical-path.js';
import { PATH_SAFE } from './safe-chars.js';

/** The two passes w3lib 2.4.1 runs: `quote(_unquotepath(path), _path_safe_chars)`. */
function twoPasses(path: string): string {
  return quoteBinary(unquoteBinary(path.replace(/%(2f|3f)/gi, (m) => '%25' + m.slice(1).toUpperCase())), PATH_SAFE);
}

// Paths rich in escapes, valid or not, in both cases, next to raw bytes of every kind.
const pathChar = fc.oneof(
  fc.constantFrom('%', '%2f', '%2F', '%3f', '%3F', '%25', '%41', '%e9', '%E9', '%2', '%g1', '%%', '/', ';', '#', ' ', 'a', 'Z'),
  fc.integer({ min: 0, max: 255 }).map((b) => String.fromCharCode(b)),
);

describe('canonicalPath', () => {
  it('equals unquote-then-quote on any binary string', () => {
    fc.assert(
      fc.property(fc.array(pathChar, { maxLength: 40 }), (chars) => {
        const path = chars.join('');
        expect(canonicalPath(path)).toBe(twoPasses(path));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the same result on a path quoted first (safeParts leaves the quoting to it)', () => {
    fc.assert(
      fc.property(fc.array(pathChar, { maxLength: 40 }), (chars) => {
        const path = chars.join('');
        expect(canonicalPath(quoteBinary(path, PATH_SAFE))).toBe(canonicalPath(path));
      }),
      { numRuns: 5000 },
    );
  });

  it('handles the w3lib cases and long paths', () => {
    expect(canonicalPath('/a%2fb%3Fc')).toBe('/a%2Fb%3Fc');
    expect(canonicalPath('/cmp/sale%25')).toBe('/cmp/sale%');
    expect(canonicalPath('/%7e%41%c3%a9%')).toBe('/~A%C3%A9%');
    const long = '/' + '%c3%a9'.repeat(2000) + ' x';
    expect(canonicalPath(long)).toBe(twoPasses(long));
    const unchanged = '/' + '%C3%A9'.repeat(2000);
    expect(canonicalPath(unchanged)).toBe(unchanged);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ConformanceInput, runConformanceCase } from '../src/internal.js';
import { locateVectors, readJsonl } from './vectors.js';

// The vectors are computed by the real Scrapy 2.18 / w3lib 2.4.1 / scrapy-redis 0.9.1 and read at run time, so a
// change of the shared vectors is tested without touching this package.
type Expected = ConformanceInput & Record<string, unknown>;

const FIELDS = [
  'canonical_url',
  'canonical_error',
  'safe_url',
  'safe_url_error',
  'request_url',
  'request_method',
  'fp_url',
  'fp27_json',
  'fp27',
  'fp26',
  'fp_redis',
  'error',
] as const;

const location = locateVectors();
const cases: Expected[] = location.dir ? readJsonl<Expected>(join(location.dir, 'expected.jsonl')) : [];

describe('conformance with Scrapy/w3lib (shared/conformance/fingerprint)', () => {
  it('finds the shared vectors', () => {
    expect(
      location.dir,
      `Fingerprint vectors not found. Set SCRAPY_CONFORMANCE_DIR to the folder holding expected.jsonl, or keep ` +
        `shared/ beside the repository root. Looked in:\n  ${location.tried.join('\n  ')}`,
    ).not.toBeNull();
    expect(cases.length).toBeGreaterThan(0);
  });

  it('agrees on every field of every case', () => {
    expect(cases.length, 'no vectors loaded (see the test above)').toBeGreaterThan(0);
    const mismatches: string[] = [];
    for (const c of cases) {
      const got = runConformanceCase(c) as unknown as Record<string, unknown>;
      for (const field of FIELDS) {
        const want = c[field] ?? null;
        if (got[field] !== want) {
          mismatches.push(
            `${c.id} [${c.category}] ${field}\n    url:      ${JSON.stringify(c.url)}\n    expected: ${JSON.stringify(want)}\n    actual:   ${JSON.stringify(got[field])}`,
          );
        }
      }
    }
    const agreeing = cases.length - new Set(mismatches.map((m) => m.split(' ')[0])).size;
    expect(mismatches, `${agreeing}/${cases.length} cases agree; mismatches:\n${mismatches.join('\n')}`).toEqual([]);
  });
});

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { fingerprintDetails, type FingerprintRecipe, type ScrapyRequestVersion } from '../src/index.js';
import { errorText } from '../src/conformance/run-case.js';
import { locateScrapyRedisSrc } from './vectors.js';

// Vectors made at run time by the real Scrapy the other fleet runs (Debian 12's python3-scrapy 2.8, whose Request()
// still applies escape_ajax) and the vendored scrapy-redis: scripts/scrapy-request-vectors.py prints them.
const PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'scrapy-request-vectors.py');

interface Versions {
  scrapy: string;
  w3lib: string;
  python: string;
  has_request_fingerprint: boolean;
}
interface Vector {
  url: string;
  request_url: string | null;
  fp_url: string | null;
  fp27: string | null;
  fp27_kf: string | null;
  fp26: string | null;
  fp26_kf: string | null;
  fp_redis: string | null;
  error: string | null;
}

let versions: Versions;
let vectors: Vector[];

/** Our values for one URL, in the script's field names. */
function ours(url: string, scrapyRequest: ScrapyRequestVersion, legacy: boolean): Omit<Vector, 'url'> {
  const run = (recipe: FingerprintRecipe, keepFragments = false) =>
    fingerprintDetails(
      { url },
      { recipe, keepFragments, scrapyRequest: recipe === 'scrapy-2.6' ? '<=2.12' : scrapyRequest },
    );
  try {
    const fp27 = run('scrapy');
    return {
      request_url: fp27.request.url,
      fp_url: fp27.url,
      fp27: fp27.fingerprint,
      fp27_kf: run('scrapy', true).fingerprint,
      fp26: legacy ? run('scrapy-2.6').fingerprint : null,
      fp26_kf: legacy ? run('scrapy-2.6', true).fingerprint : null,
      fp_redis: run('scrapy-redis').fingerprint,
      error: null,
    };
  } catch (error) {
    const none = {
      request_url: null,
      fp_url: null,
      fp27: null,
      fp27_kf: null,
      fp26: null,
      fp26_kf: null,
      fp_redis: null,
    };
    return { ...none, error: errorText(error) };
  }
}

/** Every field where we differ from Scrapy, per URL. */
function mismatches(scrapyRequest: ScrapyRequestVersion): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const v of vectors) {
    const got = ours(v.url, scrapyRequest, versions.has_request_fingerprint) as Record<string, unknown>;
    for (const [field, want] of Object.entries(v)) {
      if (field === 'url' || got[field] === want) continue;
      const list = out.get(v.url) ?? [];
      list.push(
        `${JSON.stringify(v.url)} ${field}\n    scrapy: ${JSON.stringify(want)}\n    ours:   ${JSON.stringify(got[field])}`,
      );
      out.set(v.url, list);
    }
  }
  return out;
}

describe(`scrapyRequest '<=2.12' against the installed Scrapy (${PYTHON})`, () => {
  beforeAll(() => {
    const src = locateScrapyRedisSrc();
    if (!src.dir) {
      throw new Error(
        `vendored scrapy-redis not found; set SCRAPY_REDIS_SRC. Looked in:\n  ${src.tried.join('\n  ')}`,
      );
    }
    const r = spawnSync(PYTHON, [SCRIPT, '--scrapy-redis-src', src.dir], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (r.error || r.status !== 0) {
      throw new Error(
        `${PYTHON} ${SCRIPT} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stderr}\n` +
          'This test needs the real Scrapy: apt-get install python3-scrapy (or set SCRAPY_PYTHON to a python with scrapy).',
      );
    }
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    versions = lines[0]!['versions'] as Versions;
    vectors = lines.slice(1) as unknown as Vector[];
  }, 120_000);

  it('runs a Scrapy whose Request() still applies escape_ajax (2.12 or older)', () => {
    const [major, minor] = versions.scrapy.split('.').map(Number);
    expect(
      major === 2 && minor! <= 12,
      `Scrapy ${versions.scrapy} no longer rewrites #! URLs; run this with Scrapy <= 2.12`,
    ).toBe(true);
    expect(vectors.length).toBeGreaterThan(300);
    const rewritten = vectors.filter((v) => v.request_url?.includes('_escaped_fragment_=')).length;
    expect(rewritten, 'vectors whose URL Scrapy rewrote').toBeGreaterThan(100);
  });

  it('agrees on request.url, the hashed URL and every recipe for every URL (100%)', () => {
    const bad = mismatches('<=2.12');
    const text = [...bad.values()].flat().join('\n');
    expect(
      bad.size,
      `${vectors.length - bad.size}/${vectors.length} URLs agree (Scrapy ${versions.scrapy}, w3lib ${versions.w3lib}):\n${text}`,
    ).toBe(0);
  });

  it("'2.13+' (the default) differs from this Scrapy on exactly the #! URLs it rewrote", () => {
    const bad = mismatches('2.13+');
    // (a rejected URL counts too: Scrapy's "Missing scheme" message quotes the rewritten URL)
    const rewritten = vectors
      .filter((v) => v.url.includes('#!') && (v.request_url ?? v.error ?? '').includes('_escaped_fragment_='))
      .map((v) => v.url);
    expect(rewritten.length).toBeGreaterThan(100);
    expect([...bad.keys()].sort()).toEqual(rewritten.sort());
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalizeUrl, fingerprint, FINGERPRINT_RECIPES, safeUrlString } from '../src/index.js';

// URLs in the domain where w3lib's canonicalize_url is idempotent itself: no `%25` and no bare `%` in the path
// (w3lib decodes `%25` to `%`, so `/%2541` → `/%41` → `/A`: that is Scrapy's behaviour and the vectors pin it).
const chars = (alphabet: string[]) => fc.constantFrom(...alphabet);
const pathToken = chars([
  ...'abcXYZ019-._~!$&\'()*+,=:@ "<>|[]^{}`é中😀'.split(/(?:)/u),
  '%41', '%2F', '%3f', '%c3%a9', '%E9', '%7e',
]);
const queryToken = chars([...'abcXYZ019-._~!$\'()*,:@/? +é中😀"<>|[]^{}`='.split(/(?:)/u), '%41', '%2B', '%e9', '%FF', '%20']);
const keyToken = chars([...'abkXYZ09-._~!$\'()*,:@/? +é😀'.split(/(?:)/u), '%41', '%e9']);
const host = fc.oneof(
  fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 3 }).map((l) => [...l, 'com'].join('.')),
  fc.constantFrom('bücher.de', '例え.jp', 'ñ.com', 'WWW.EXAMPLE.COM', 'faß.de', '[::1]', '[2001:DB8::1]'),
);
const path = fc.array(fc.array(pathToken, { maxLength: 6 }).map((t) => t.join('')), { maxLength: 4 }).map((s) =>
  s.length ? '/' + s.join('/') : '',
);
const pairs = fc.array(
  fc.tuple(fc.array(keyToken, { minLength: 1, maxLength: 4 }).map((t) => t.join('')), fc.array(queryToken, { maxLength: 5 }).map((t) => t.join(''))),
  { maxLength: 6 },
);
const url = fc
  .record({
    scheme: fc.constantFrom('http', 'https', 'HTTP'),
    host,
    port: fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined }),
    path,
    pairs,
  })
  .map(({ scheme, host: h, port, path: p, pairs: q }) =>
    `${scheme}://${h}${port === undefined ? '' : ':' + port}${p}${q.length ? '?' + q.map(([k, v]) => `${k}=${v}`).join('&') : ''}`,
  );

describe('properties', () => {
  it('canonicalizing a canonical URL changes nothing (where w3lib is idempotent)', () => {
    fc.assert(
      fc.property(url, (u) => {
        const once = canonicalizeUrl(u);
        expect(canonicalizeUrl(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('safe_url_string of a safe URL is the same URL', () => {
    fc.assert(
      fc.property(url, (u) => {
        const once = safeUrlString(u);
        expect(safeUrlString(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('fingerprints never depend on query order or on & versus ; between arguments', () => {
    fc.assert(
      fc.property(
        fc.record({ h: host, p: path, q: pairs.filter((q) => q.length > 1), seed: fc.integer(), semi: fc.boolean() }),
        ({ h, p, q, seed, semi }) => {
          const shuffled = [...q].sort((a, b) => ((a[0].length * 31 + b[1].length + seed) % 3) - 1);
          // A fixed last argument: w3lib strips trailing whitespace off the whole URL, which is not about order.
          const build = (list: [string, string][], sep: string) =>
            `http://${h}${p}?${list.map(([k, v]) => `${k}=${v}`).join(sep)}${sep}zz=1`;
          for (const recipe of FINGERPRINT_RECIPES) {
            expect(fingerprint({ url: build(shuffled, semi ? ';' : '&') }, { recipe })).toBe(
              fingerprint({ url: build(q, '&') }, { recipe }),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fingerprints never depend on the order or case of includeHeaders (JSON recipe)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('Accept', 'X-Token', 'Cookie', 'Accept-Language'), { minLength: 1 }), (names) => {
        const req = { url: 'http://h/', headers: { accept: 'a', 'x-token': ['1', '2'], COOKIE: 's=1' } };
        const upper = [...names].reverse().map((n) => n.toUpperCase());
        expect(fingerprint(req, { includeHeaders: upper })).toBe(fingerprint(req, { includeHeaders: names }));
      }),
    );
  });
});

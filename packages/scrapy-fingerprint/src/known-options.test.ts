import { describe, expect, it } from 'vitest';
import { canonicalizeUrl, fingerprint, fingerprintTransform, InvalidRequestError, safeUrlString, scrapyUniqueKey } from './index.js';

// A misspelt option would be dropped silently and the fingerprint would differ from the Scrapy fleet's.
describe('option names', () => {
  const url = 'https://example.com/a?b=1#frag';
  it.each([
    ['fingerprint', () => fingerprint({ url }, { includeHeader: ['Accept'] } as never), 'includeHeaders'],
    ['canonicalizeUrl', () => canonicalizeUrl(url, { keepFragment: true } as never), 'keepFragments'],
    ['safeUrlString', () => safeUrlString(url, { pathencoding: 'latin-1' } as never), 'pathEncoding'],
    ['scrapyUniqueKey', () => scrapyUniqueKey({ url }, { dontfilter: true } as never), 'dontFilter'],
    ['fingerprintTransform', () => fingerprintTransform({ recipie: 'scrapy' } as never), 'recipe'],
  ])('%s refuses a misspelt option and names the right one', (_name, call, near) => {
    expect(call).toThrow(InvalidRequestError);
    expect(call).toThrow(new RegExp(`did you mean ${near}\\?`));
  });

  it('every documented option is still taken', () => {
    expect(fingerprint({ url }, { recipe: 'scrapy', includeHeaders: ['Accept'], keepFragments: true, scrapyRequest: '2.13+' })).toMatch(/^[0-9a-f]{40}$/);
    expect(canonicalizeUrl(url, { keepBlankValues: false, keepFragments: true, encoding: 'utf-8' })).toBe('https://example.com/a?b=1#frag');
    expect(safeUrlString(url, { encoding: 'utf-8', pathEncoding: 'utf-8', quotePath: true })).toBe(url);
    expect(scrapyUniqueKey({ url }, { recipe: 'scrapy', dontFilter: false })).toMatch(/^[0-9a-f]{40}$/);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { checkFingerprintOptions, fingerprint, fingerprintDetails } from './fingerprint.js';
import type { ScrapyRequestVersion } from './request-version.js';

// Expected values printed by Debian's Scrapy 2.8 (escape_ajax in Request) and by the port's 2.18 vectors.
describe('scrapyRequest option', () => {
  const url = 'http://example.com/ajax.html?k1=v1&k2=v2#!key=value';

  it("'<=2.12' rewrites #! into _escaped_fragment_ for the scrapy and scrapy-redis recipes", () => {
    const d = fingerprintDetails({ url }, { scrapyRequest: '<=2.12' });
    expect(d.request.url).toBe('http://example.com/ajax.html?k1=v1&k2=v2&_escaped_fragment_=key%3Dvalue');
    expect(d.url).toBe('http://example.com/ajax.html?_escaped_fragment_=key%3Dvalue&k1=v1&k2=v2');
    expect(d.fingerprint).toBe('229f52f716c4c954d234b0d30e14c7042f01383f');
    expect(fingerprint({ url }, { recipe: 'scrapy-redis', scrapyRequest: '<=2.12' })).toBe(
      '4f2c2aa719ca39b1f70bcb927e5a7ae191bac5b7',
    );
  });

  it("'2.13+' is the default of scrapy and scrapy-redis: the #! fragment is dropped", () => {
    expect(fingerprintDetails({ url }).url).toBe('http://example.com/ajax.html?k1=v1&k2=v2');
    expect(fingerprint({ url }, { scrapyRequest: '2.13+' })).toBe(
      fingerprint({ url: 'http://example.com/ajax.html?k1=v1&k2=v2' }),
    );
    expect(fingerprint({ url }, { recipe: 'scrapy-redis' })).not.toBe(
      '4f2c2aa719ca39b1f70bcb927e5a7ae191bac5b7',
    );
  });

  it("scrapy-2.6 always rewrites and rejects '2.13+' (request_fingerprint never ran on a Scrapy that did not)", () => {
    expect(fingerprint({ url }, { recipe: 'scrapy-2.6' })).toBe('ba1d58f3fe3b9416877c4fef4f74621755f663e4');
    expect(fingerprint({ url }, { recipe: 'scrapy-2.6', scrapyRequest: '<=2.12' })).toBe(
      'ba1d58f3fe3b9416877c4fef4f74621755f663e4',
    );
    expect(() => fingerprint({ url }, { recipe: 'scrapy-2.6', scrapyRequest: '2.13+' })).toThrow(
      /only exists in Scrapy 2.11/,
    );
  });

  it('rejects unknown values with InvalidRequestError (field scrapyRequest), at option check time too', () => {
    const bad = { scrapyRequest: '2.8' as ScrapyRequestVersion };
    expect(() => fingerprint({ url }, bad)).toThrow(InvalidRequestError);
    expect(() => checkFingerprintOptions(bad)).toThrow(/use one of '2.13\+', '<=2.12'/);
    try {
      checkFingerprintOptions(bad);
    } catch (error) {
      expect((error as InvalidRequestError).field).toBe('scrapyRequest');
    }
  });
});

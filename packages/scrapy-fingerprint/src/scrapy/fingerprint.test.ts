import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { ScrapyFingerprintError } from '../errors/scrapy-fingerprint-error.js';
import { fingerprint, fingerprintBytes, fingerprintDetails } from './fingerprint.js';

// Reference values from notes/public-bug-cases.md (computed with Scrapy, w3lib and scrapy-redis).
describe('fingerprint', () => {
  it('B03: reference values of the three recipes', () => {
    const req = { url: 'http://example.com/' };
    expect(fingerprint(req)).toBe('cebe46deeab7ee5915824a38cf73ee6f7eb0aba5');
    expect(fingerprint(req, { recipe: 'scrapy-2.6' })).toBe('628735d3a16b67b1dd5fbfbd10a15f2c28362bbd');
    expect(fingerprint(req, { recipe: 'scrapy-redis' })).toBe('db723d399cb551c9ef8eca77ed8dbed4a0522b4f');
    expect(fingerprintBytes(req)).toEqual(Buffer.from('cebe46deeab7ee5915824a38cf73ee6f7eb0aba5', 'hex'));
  });

  it('B03: the legacy recipe collides where the JSON recipe does not', () => {
    const opts = { includeHeaders: ['X-A'] };
    const a = { url: 'http://example.com/', headers: { 'X-A': ['foo', 'bar'] } };
    const b = { url: 'http://example.com/', headers: { 'X-A': ['fo', 'obar'] } };
    expect(fingerprint(a, { ...opts, recipe: 'scrapy-2.6' })).toBe('811501dd9e2d5880e33b5d5a4731b0acbb2dd347');
    expect(fingerprint(b, { ...opts, recipe: 'scrapy-2.6' })).toBe('811501dd9e2d5880e33b5d5a4731b0acbb2dd347');
    expect(fingerprint(a, opts)).not.toBe(fingerprint(b, opts));
    const bodyVsHeader = [
      { url: 'http://example.com/', method: 'POST', payload: 'x-afoo' },
      { url: 'http://example.com/', method: 'POST', headers: { 'X-A': 'foo' } },
    ];
    expect(fingerprint(bodyVsHeader[0]!, { ...opts, recipe: 'scrapy-2.6' })).toBe('7bf14945ba5f4ee1e3bbf785f04ba1657acb0d62');
    expect(fingerprint(bodyVsHeader[1]!, { ...opts, recipe: 'scrapy-2.6' })).toBe('7bf14945ba5f4ee1e3bbf785f04ba1657acb0d62');
    expect(fingerprint(bodyVsHeader[0]!, opts)).not.toBe(fingerprint(bodyVsHeader[1]!, opts));
  });

  it('B04: headers only count when included, names case-insensitive', () => {
    const en = { url: 'http://example.com/account', headers: { 'Accept-Language': 'en' } };
    const cs = { url: 'http://example.com/account', headers: { 'accept-language': 'cs' } };
    const legacy = { recipe: 'scrapy-2.6' as const };
    expect(fingerprint(en, legacy)).toBe('caf9f4a44d60e2163069fdfc7314e1395103eded');
    expect(fingerprint(cs, legacy)).toBe('caf9f4a44d60e2163069fdfc7314e1395103eded');
    expect(fingerprint(en, { ...legacy, includeHeaders: ['Accept-Language'] })).toBe('1dbe58aca7751eec530d2384cc58ed9263b6af7c');
    expect(fingerprint(cs, { ...legacy, includeHeaders: ['ACCEPT-language'] })).toBe('0880b529ead6c58564715a33830acd02e1f33565');
  });

  it('B19: POST payloads are part of the fingerprint; a string and its UTF-8 bytes agree', () => {
    const a = { url: 'https://api.example.com/graphql', method: 'POST', payload: '{"q":1}' };
    const b = { url: 'https://api.example.com/graphql', method: 'POST', payload: '{"q":2}' };
    expect(fingerprint(a, { recipe: 'scrapy-2.6' })).toBe('329fb65208fc23db9142208fbbd25071b95f38f2');
    expect(fingerprint(b, { recipe: 'scrapy-2.6' })).toBe('e285624b1ae3d4aeb6ca16e066092dabe8edb432');
    expect(fingerprint({ ...a, payload: Buffer.from('{"q":1}') })).toBe(fingerprint(a));
    expect(fingerprint({ url: a.url, method: 'post', body: '{"q":1}' })).toBe(fingerprint(a));
  });

  it('merges header names that differ in case, values in input order', () => {
    const d = fingerprintDetails(
      { url: 'http://h/', headers: { Accept: ['a'], accept: 'b', 'X-Empty': null } },
      { includeHeaders: ['accept', 'x-empty', 'missing'] },
    );
    expect(d.hashed).toBe(
      '{"body": "", "headers": {"616363657074": ["61", "62"], "782d656d707479": []}, "method": "GET", "url": "http://h/"}',
    );
  });

  it('upper-cases the method as Python does', () => {
    expect(fingerprintDetails({ url: 'http://h/', method: 'ß' }).request.method).toBe('SS');
  });

  it('rejects URLs Scrapy rejects with a typed error naming the URL and the reason', () => {
    try {
      fingerprint({ url: '/relative' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidUrlError);
      expect(error).toBeInstanceOf(ScrapyFingerprintError);
      const e = error as InvalidUrlError;
      expect(e.code).toBe('INVALID_URL');
      expect(e.reason).toBe('missing-scheme');
      expect(e.url).toBe('/relative');
      expect(e.message).toContain('/relative');
    }
    expect(() => fingerprint({ url: 'http://h:99999/' })).toThrow(expect.objectContaining({ reason: 'port-out-of-range' }));
  });

  it('rejects malformed input before computing anything', () => {
    expect(() => fingerprint({ url: 42 as unknown as string })).toThrow(InvalidRequestError);
    expect(() => fingerprint({ url: 'http://h/' }, { recipe: 'nope' as 'scrapy' })).toThrow(/unknown recipe/);
    expect(() => fingerprint({ url: 'http://h/', headers: { A: {} as unknown as string } })).toThrow(InvalidRequestError);
  });
});

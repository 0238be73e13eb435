import { log } from 'crawlee';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { fingerprint } from '../scrapy/fingerprint.js';
import { fingerprintTransform } from './transform.js';

afterEach(() => vi.restoreAllMocks());

describe('fingerprintTransform', () => {
  it('sets the fingerprint on http(s) links', () => {
    const t = fingerprintTransform();
    expect(t({ url: 'https://example.com/?b=2&a=1' })).toEqual({
      url: 'https://example.com/?b=2&a=1',
      uniqueKey: fingerprint({ url: 'https://example.com/?a=1&b=2' }),
    });
    expect(t({ url: 'HTTP://example.com/' })).toMatchObject({ uniqueKey: fingerprint({ url: 'http://example.com/' }) });
  });

  it('skips links Scrapy rejects or no crawler fetches, with one debug line each, instead of throwing', () => {
    const debug = vi.spyOn(log, 'debug');
    const t = fingerprintTransform();
    const links = ['mailto:someone@example.com', 'javascript:void(0)', 'tel:+420123456789', 'data:text/plain,x',
      'about:blank', 'ftp://example.com/file', 'http://example.com:99999/', 'http://example.com:abc/', 'http://[::1/',
      '//example.com/relative', '/relative'];
    for (const url of links) expect(t({ url }), url).toBe(false);
    expect(debug).toHaveBeenCalledTimes(links.length);
    expect(debug.mock.calls[6]![1]).toMatchObject({ url: 'http://example.com:99999/',
      reason: expect.stringContaining('Port out of range') });
  });

  it('keeps what the user transform skips skipped, and lets its errors through', () => {
    expect(fingerprintTransform({}, () => false)({ url: 'https://example.com/' })).toBe(false);
    const boom = fingerprintTransform<{ url: string }>({}, () => {
      throw new Error('user bug');
    });
    expect(() => boom({ url: 'https://example.com/' })).toThrow('user bug');
  });

  it('rejects bad options when created, not per link', () => {
    expect(() => fingerprintTransform({ recipe: 'nope' as 'scrapy' })).toThrow(InvalidRequestError);
    expect(() => fingerprintTransform({ includeHeaders: [1 as unknown as string] })).toThrow(InvalidRequestError);
  });
});

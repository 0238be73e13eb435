import { createHash } from 'node:crypto';
import { Request } from 'crawlee';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { decodeRequest, encodeRequest, requestIdOf } from './request-codec.js';

describe('request codec', () => {
  it("request ids are Crawlee's: sha256(uniqueKey), base64 without +/=, first 15 characters", () => {
    for (const key of ['https://example.com', 'https://example.com/ü?q=1', 'POST(abc):https://x.y']) {
      const expected = createHash('sha256').update(key).digest('base64').replace(/[+/=]/g, '').slice(0, 15);
      expect(requestIdOf(key)).toBe(expected);
    }
  });

  it('encodes a Crawlee Request as a format-2 record, keeping userData.__crawlee', () => {
    const request = new Request({ url: 'https://example.com/a', userData: { x: 1 } });
    request.crawlDepth = 2;
    const encoded = encodeRequest(request);
    expect(encoded.record).toBe('Sexample.com/a\n{"x":1,"__crawlee":{"crawlDepth":2}}');
    const decoded = decodeRequest(encoded.record, encoded.id);
    expect(decoded.ok && decoded.request).toMatchObject({ id: requestIdOf('https://example.com/a'), url: 'https://example.com/a', userData: { x: 1, __crawlee: { crawlDepth: 2 } } });
    expect(encoded.handled).toBe(false);
  });

  it('rejects bad input before anything is written', () => {
    expect(() => encodeRequest({ url: 'ftp://x', uniqueKey: 'k' })).toThrow(InvalidRequestError);
    expect(() => encodeRequest({ url: 'https://x.y', uniqueKey: '' })).toThrow(InvalidRequestError);
    expect(() => encodeRequest({ url: 'https://x.y', uniqueKey: 'k', id: 'wrong' })).toThrow(/does not match its uniqueKey/);
  });

  it('decodes stored JSON, drops null fields, and explains unreadable entries', () => {
    const ok = decodeRequest('{"url":"https://x.y","uniqueKey":"k","loadedUrl":null}', requestIdOf('k'));
    expect(ok.ok && ok.request).toEqual({ url: 'https://x.y', uniqueKey: 'k', id: requestIdOf('k') });
    expect(decodeRequest('{"url":"https://x.y","uniqueKey":"k","id":"other"}', requestIdOf('k'))).toMatchObject({ ok: false });
    expect(decodeRequest('[]', 'a')).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown format/) });
  });
});

import { Request } from 'crawlee';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { decodeRequest, encodeRequest, requestIdOf } from './request-codec.js';
import { requestProblem } from './request-rules.js';

const base = { url: 'https://example.com/a', uniqueKey: 'https://example.com/a' };

/** Valid JSON, not a valid request: each breaks one rule of Crawlee's Request (or would loop or crash a crawl). */
const BROKEN: Record<string, Record<string, unknown>> = {
  'ftp url': { ...base, url: 'ftp://example.com/a' },
  'url without scheme': { ...base, url: 'example.com/a' },
  'url that does not parse': { ...base, url: 'http://exa mple.com:99999/' },
  'url a number': { ...base, url: 42 },
  'userData a string': { ...base, userData: 'x' },
  'userData an array': { ...base, userData: [1, 2] },
  'userData.__crawlee a string': { ...base, userData: { __crawlee: 'x' } },
  'headers a string': { ...base, headers: 'Accept: */*' },
  'headers an array': { ...base, headers: [['a', 'b']] },
  'retryCount a string': { ...base, retryCount: '3' },
  'retryCount negative': { ...base, retryCount: -1e9 },
  'retryCount fractional': { ...base, retryCount: 0.5 },
  'method a number': { ...base, method: 1 },
  'method an object': { ...base, method: { get: true } },
  'method empty': { ...base, method: '' },
  'GET with payload': { ...base, payload: 'a=1' },
  'payload an object': { ...base, method: 'POST', payload: { a: 1 } },
  'noRetry a string': { ...base, noRetry: 'yes' },
  'errorMessages a string': { ...base, errorMessages: 'boom' },
  'errorMessages of numbers': { ...base, errorMessages: [1] },
  'loadedUrl not a URL': { ...base, loadedUrl: 'nope' },
  'handledAt not a date': { ...base, handledAt: 'yesterday' },
  'label a number': { ...base, label: 7 },
  'crawlDepth negative': { ...base, crawlDepth: -1 },
  'state out of range': { ...base, state: 9 },
  'maxRetries a string': { ...base, maxRetries: '5' },
  'sessionRotationCount a string': { ...base, sessionRotationCount: 'x' },
  'uniqueKey a number': { ...base, uniqueKey: 5 },
  'keepUrlFragment a number': { ...base, keepUrlFragment: 1 },
};

describe('request rules (what Crawlee’s Request accepts)', () => {
  it.each(Object.entries(BROKEN))('%s: dead-lettered at decode with the reason, rejected at encode', (_name, entry) => {
    const id = typeof entry.uniqueKey === 'string' ? requestIdOf(entry.uniqueKey) : 'some-id';
    const decoded = decodeRequest(JSON.stringify(entry), id);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.reason).toMatch(/url|uniqueKey|must|GET/);
    expect(() => encodeRequest(entry)).toThrow(InvalidRequestError);
  });

  it('every shape Crawlee itself rejects is rejected here too (the rules are at least Crawlee’s)', () => {
    for (const [name, entry] of Object.entries(BROKEN)) {
      let crawleeThrows = false;
      try {
        new Request(entry as unknown as ConstructorParameters<typeof Request>[0]);
      } catch {
        crawleeThrows = true;
      }
      if (crawleeThrows) expect(requestProblem(entry), name).toBeDefined();
    }
  });

  it('accepts what Crawlee stores: a crawled, retried, failed Request round-trips and Crawlee rebuilds it', () => {
    const request = new Request({ url: 'https://example.com/p?q=1', method: 'POST', payload: 'a=1', headers: { A: 'b' }, userData: { n: 1 }, label: 'L' });
    request.crawlDepth = 3;
    request.retryCount = 2;
    request.pushErrorMessage(new Error('boom'));
    request.loadedUrl = 'https://example.com/p?q=1&r=2';
    request.handledAt = new Date().toISOString();
    request.noRetry = true;
    const encoded = encodeRequest(request);
    const decoded = decodeRequest(encoded.record, encoded.id);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(() => new Request(decoded.request as unknown as ConstructorParameters<typeof Request>[0])).not.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { defaultHostKey, hostKeyChecked } from './host-key.js';
import { politenessSettings, retryDelayMs } from './politeness-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

describe('defaultHostKey', () => {
  it('is the lower-cased hostname, with the port only when it is not the scheme default; subdomains are separate', () => {
    expect(defaultHostKey('http://Example.COM/a')).toBe('example.com');
    expect(defaultHostKey('http://example.com:80/a')).toBe('example.com');
    expect(defaultHostKey('https://example.com:443/a')).toBe('example.com');
    expect(defaultHostKey('https://example.com:80/a')).toBe('example.com:80');
    expect(defaultHostKey('http://example.com:8080/a')).toBe('example.com:8080');
    expect(defaultHostKey('http://www.example.com/')).toBe('www.example.com');
    expect(defaultHostKey('http://127.0.0.2:3000/')).toBe('127.0.0.2:3000');
    expect(defaultHostKey('http://[::1]:8080/')).toBe('[::1]:8080');
    expect(defaultHostKey('http://bücher.example/')).toBe('xn--bcher-kva.example');
  });

  it('rejects what is not a URL, and a hostKey that throws or returns no usable key, with InvalidRequestError', () => {
    expect(() => defaultHostKey('not a url')).toThrow(InvalidRequestError);
    expect(() => hostKeyChecked(() => '', 'http://a/')).toThrow(InvalidRequestError);
    expect(() => hostKeyChecked(() => 'x'.repeat(513), 'http://a/')).toThrow(InvalidRequestError);
    expect(() => hostKeyChecked(() => 42 as unknown as string, 'http://a/')).toThrow(InvalidRequestError);
    expect(() => hostKeyChecked(() => { throw new Error('boom'); }, 'http://a/')).toThrow(/hostKey threw/);
  });
});

describe('politenessSettings and retryDelayMs', () => {
  it('checks ranges; one request per host at a time by default when there is a delay', () => {
    expect(politenessSettings(undefined)).toBeUndefined();
    expect(politenessSettings({})).toMatchObject({ minDelayMs: 0, maxConcurrency: 0 });
    expect(politenessSettings({ minDelaySecs: 1.5 })).toMatchObject({ minDelayMs: 1500, maxConcurrency: 1 });
    expect(politenessSettings({ minDelaySecs: 1, maxConcurrencyPerHost: 4 })).toMatchObject({ maxConcurrency: 4 });
    for (const bad of [{ minDelaySecs: -1 }, { minDelaySecs: 86_401 }, { minDelaySecs: Number.NaN }, { maxConcurrencyPerHost: 0 },
      { maxConcurrencyPerHost: 1.5 }, { maxConcurrencyPerHost: 10_001 }, { retryBackoff: { factor: 0.5 } }, { retryBackoff: { maxSecs: -1 } },
      { hostKey: 'host' as unknown as () => string }]) {
      expect(() => politenessSettings(bad), JSON.stringify(bad)).toThrow(InvalidOptionsError);
    }
  });

  it('retry delay is min(maxSecs, baseSecs * factor^(retryCount-1)), 0 before the first retry or when off', () => {
    const s = politenessSettings({ retryBackoff: { baseSecs: 2, factor: 3, maxSecs: 50 } })!;
    expect([0, 1, 2, 3, 4, 100].map((n) => retryDelayMs(s, n))).toEqual([0, 2000, 6000, 18_000, 50_000, 50_000]);
    expect(retryDelayMs(politenessSettings({})!, 1)).toBe(1000);
    expect(retryDelayMs(politenessSettings({ retryBackoff: false })!, 5)).toBe(0);
    expect(retryDelayMs(s, undefined)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { canonicalizeUrl } from './canonicalize-url.js';
import { safeUrlString } from './safe-url-string.js';

describe('a URL that is not a string', () => {
  const bad: [unknown, string][] = [
    [null, 'null'],
    [undefined, 'undefined'],
    [42, 'number'],
    [{ href: 'http://example.com/' }, 'object'],
  ];
  for (const [fn, name] of [
    [canonicalizeUrl, 'canonicalizeUrl'],
    [safeUrlString, 'safeUrlString'],
  ] as const) {
    it.each(bad)(`${name}(%s) throws InvalidRequestError, not a bare TypeError`, (value, got) => {
      const call = (): string => (fn as (url: unknown) => string)(value);
      expect(call).toThrow(InvalidRequestError);
      try {
        call();
      } catch (error) {
        expect(error).toMatchObject({ code: 'INVALID_REQUEST', field: 'url' });
        expect((error as Error).message).toContain(`${name} needs the URL as a string, got ${got}`);
      }
    });
  }
});

import { describe, expect, it } from 'vitest';
import { EncodingError } from '../errors/encoding-error.js';
import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { canonicalizeUrl } from './canonicalize-url.js';
import { safeUrlString } from './safe-url-string.js';

// Expected values: w3lib's own results (notes/public-bug-cases.md B01, B06, B18 and w3lib 2.1.1/2.4.1 runs).
describe('canonicalizeUrl (w3lib canonicalize_url)', () => {
  it('sorts the query by raw bytes, keeps blank values, splits on & and ;', () => {
    expect(canonicalizeUrl('http://www.example.com/do?c=3&b=5&b=2&a=50')).toBe('http://www.example.com/do?a=50&b=2&b=5&c=3');
    expect(canonicalizeUrl('http://h/?a=10&a=2&b&c=')).toBe('http://h/?a=10&a=2&b=&c=');
    expect(canonicalizeUrl('http://h/?b&c=&a=1', { keepBlankValues: false })).toBe('http://h/?a=1');
    expect(canonicalizeUrl('http://www.example.com/a;p1;p2/b;q?x=1;y=2')).toBe('http://www.example.com/a;p1;p2/b;q?x=1&y=2');
    expect(canonicalizeUrl('http://h/?k=%EF%BF%BD&k=%F0%9F%98%80&k=%EF%BF%AE')).toBe(
      'http://h/?k=%EF%BF%AE&k=%EF%BF%BD&k=%F0%9F%98%80',
    );
  });

  it('B01: keeps %23 and %2F escaped, decodes %25 to a bare % (w3lib quirk, kept for byte equality)', () => {
    expect(canonicalizeUrl('https://example.com/path/to/foo%20bar%3a%20biz%20%2376%2c%20bang%202017#bash')).toBe(
      'https://example.com/path/to/foo%20bar:%20biz%20%2376,%20bang%202017',
    );
    expect(canonicalizeUrl('http://example.com/cmp/sale%25')).toBe('http://example.com/cmp/sale%');
    expect(canonicalizeUrl('http://h/a%2fb%3Fc')).toBe('http://h/a%2Fb%3Fc');
  });

  it('B06: keeps non-UTF-8 query bytes apart and normalizes escape case', () => {
    expect(canonicalizeUrl('https://example.com/s?q=caf%E9')).toBe('https://example.com/s?q=caf%E9');
    expect(canonicalizeUrl('https://example.com/s?q=caf%E8')).toBe('https://example.com/s?q=caf%E8');
    expect(canonicalizeUrl('https://www.example.com/s?wd=%d6%d0%ce%c4&oq=test')).toBe(
      'https://www.example.com/s?oq=test&wd=%D6%D0%CE%C4',
    );
  });

  it('B06: encodes the query with the page encoding, the path with UTF-8, falling back to UTF-8', () => {
    expect(canonicalizeUrl('http://example.com/café?q=café')).toBe('http://example.com/caf%C3%A9?q=caf%C3%A9');
    expect(canonicalizeUrl('http://example.com/café?q=café', { encoding: 'latin1' })).toBe(
      'http://example.com/caf%C3%A9?q=caf%E9',
    );
    expect(canonicalizeUrl('http://example.com/中文?q=中文', { encoding: 'gbk' })).toBe(
      'http://example.com/%E4%B8%AD%E6%96%87?q=%D6%D0%CE%C4',
    );
    expect(canonicalizeUrl('http://example.com/café?q=Ж', { encoding: 'latin1' })).toBe(
      'http://example.com/caf%C3%A9?q=%D0%96',
    );
    expect(() => canonicalizeUrl('http://h/?q=x', { encoding: 'no-such-codec' })).toThrow(EncodingError);
  });

  it('B18: keeps what Crawlee normalizes away (trailing slash, :443, utm_*, case of the path)', () => {
    expect(canonicalizeUrl('https://Example.com/a/?b=2&a=1&utm_source=x')).toBe('https://example.com/a/?a=1&b=2&utm_source=x');
    expect(canonicalizeUrl('https://example.com:443/p')).toBe('https://example.com:443/p');
    expect(canonicalizeUrl('https://example.com/Product/ABC')).toBe('https://example.com/Product/ABC');
    expect(canonicalizeUrl('https://example.com/p?q=a%20b')).toBe('https://example.com/p?q=a+b');
    expect(canonicalizeUrl('http://spa.example/#/page-a')).toBe('http://spa.example/');
    expect(canonicalizeUrl('http://spa.example/#/page-a', { keepFragments: true })).toBe('http://spa.example/#/page-a');
  });

  it('lower-cases the host but not the userinfo; IDNA on the whole netloc', () => {
    expect(canonicalizeUrl('http://USER:PASS@WWW.EXAMPLE.COM/')).toBe('http://USER:PASS@www.example.com/');
    expect(canonicalizeUrl('http://user@例え.jp/path')).toBe('http://xn--user@-c63dw88r.jp/path');
    expect(canonicalizeUrl('http://www.example.com::/')).toBe('http://www.example.com/');
  });

  it('throws InvalidUrlError where urlparse raises', () => {
    expect(() => canonicalizeUrl('http://[::1/')).toThrow(InvalidUrlError);
  });
});

describe('safeUrlString (w3lib safe_url_string)', () => {
  it('escapes unsafe characters, keeps existing escapes, normalizes host and port', () => {
    expect(safeUrlString('http://www.example.com/a b/|?q=a b\'#f f')).toBe("http://www.example.com/a%20b/%7C?q=a%20b%27#f%20f");
    expect(safeUrlString('http://h/%zz%41')).toBe('http://h/%zz%41');
    expect(safeUrlString('http://BÜCHER.DE:080/')).toBe('http://xn--bcher-kva.de:80/');
    expect(safeUrlString('http://[2001:DB8::1]:8080/')).toBe('http://[2001:db8::1]:8080/');
    expect(safeUrlString('http://a@b@h/')).toBe('http://a%40b@h/');
    expect(safeUrlString('http://h/?q=é', { encoding: 'latin1' })).toBe('http://h/?q=%E9');
  });

  it('throws InvalidUrlError for a bad port', () => {
    expect(() => safeUrlString('http://h:abc/')).toThrow(InvalidUrlError);
    expect(() => safeUrlString('http://h:65536/')).toThrow(/Port out of range/);
  });
});

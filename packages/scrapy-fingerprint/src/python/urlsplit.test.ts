import { describe, expect, it } from 'vitest';
import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { hostnameOf, portOf, urlparse, urlsplit, urlunsplit, userinfoOf } from './urlsplit.js';

describe('urlsplit (Python 3.11, Debian bracket checks)', () => {
  it('splits like Python', () => {
    expect(urlsplit('HTTP://u:p@Host:80/a/b?q=1#f?g')).toEqual({
      scheme: 'http', netloc: 'u:p@Host:80', path: '/a/b', query: 'q=1', fragment: 'f?g',
    });
    // No "all-digits port" exception: the scheme is "localhost".
    expect(urlsplit('localhost:8080/x').scheme).toBe('localhost');
    expect(urlsplit('hétp://x/').scheme).toBe('');
    expect(urlsplit('  \x01http://a\tb/\n').netloc).toBe('ab');
  });

  it('splits ;params only for uses_params schemes, after the last slash', () => {
    expect(urlparse('http://h/a;x/b;y;z?q').params).toBe('y;z');
    expect(urlparse('http://h/a;x/b?q').params).toBe('');
    expect(urlparse('foo://h/a;x').params).toBe('');
  });

  it.each([
    ['http://[::1/', 'Invalid IPv6 URL'],
    ['http://::1]/', 'Invalid IPv6 URL'],
    ['http://[::1]x/', 'Invalid IPv6 URL'],
    ['http://[127.0.0.1]/', 'An IPv4 address cannot be in brackets'],
    ['http://[2a01:5cc0:1:2:3:4]', "'2a01:5cc0:1:2:3:4' does not appear to be an IPv4 or IPv6 address"],
    ['http://[vz.x]/', 'IPvFuture address is invalid'],
    ['http://a[b]@example.com/', "'example.com' does not appear to be an IPv4 or IPv6 address"],
  ])('rejects %s like Python', (url, message) => {
    try {
      urlsplit(url);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidUrlError);
      expect((error as InvalidUrlError).pythonError).toBe(`ValueError: ${message}`);
      expect((error as InvalidUrlError).code).toBe('INVALID_URL');
    }
  });

  it('accepts valid bracketed hosts', () => {
    for (const url of ['http://[::1]:80/', 'http://[fe80::1%25eth0]/', 'http://[::ffff:192.0.2.1]/', 'http://[v1.abc]/',
      'http://[1:2:3:4:5:6:7:8]/', 'http://[::]/']) {
      expect(() => urlsplit(url)).not.toThrow();
    }
  });

  it('reads hostname, userinfo and port like SplitResult', () => {
    expect(hostnameOf('U:P@[FE80::1%Zone]:8')).toBe('fe80::1%Zone');
    expect(hostnameOf('@:80')).toBeNull();
    expect(userinfoOf('a@b@host')).toEqual({ username: 'a@b', password: null });
    expect(userinfoOf('u:@host')).toEqual({ username: 'u', password: '' });
    expect(portOf('x', 'h:080')).toBe(80);
    expect(portOf('x', 'h:')).toBeNull();
    expect(() => portOf('x', 'h:+80')).toThrow("Port could not be cast to integer value as '+80'");
    expect(() => portOf('x', 'h:65536')).toThrow('Port out of range 0-65535');
  });

  it('rebuilds like Python 3.11 urlunsplit', () => {
    expect(urlunsplit('http', '', 'example.com/path', '', '')).toBe('http:///example.com/path');
    expect(urlunsplit('http', 'h', '', '', '')).toBe('http://h');
    expect(urlunsplit('mailto', '', 'a@b', 'x=1', '')).toBe('mailto:a@b?x=1');
  });
});

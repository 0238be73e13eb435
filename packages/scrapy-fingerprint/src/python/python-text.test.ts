import { describe, expect, it } from 'vitest';
import { bytesTitle, pyTitle } from './casing.js';
import { encodeText, UnicodeEncodeFailure } from './codecs.js';
import { pyJsonString } from './json.js';
import { quoteBinary, quotePlusBinary, safeTable, unquoteBinary } from './quote.js';
import { pyRepr } from './repr.js';

describe('Python text helpers', () => {
  it('json.dumps ensure_ascii escaping', () => {
    expect(pyJsonString('a"b\\c/d\n\t\x7f\x01é😀')).toBe('"a\\"b\\\\c/d\\n\\t\\u007f\\u0001\\u00e9\\ud83d\\ude00"');
  });

  it('quote / quote_plus / unquote_to_bytes', () => {
    expect(quoteBinary('a b/%\xc3\xa9', safeTable('/%'))).toBe('a%20b/%%C3%A9');
    expect(quotePlusBinary('a b+c~')).toBe('a+b%2Bc~');
    expect(unquoteBinary('%41%4g%a%zz%ff%')).toBe('A%4g%a%zz\xff%');
  });

  it('str.title() and bytes.title()', () => {
    expect(pyTitle('x-custom-HEADER')).toBe('X-Custom-Header');
    expect(pyTitle('ß-x')).toBe('Ss-X');
    expect(bytesTitle('x-\xc3\xa9tag')).toBe('X-\xc3\xa9Tag');
  });

  it('strict encoding, like str.encode', () => {
    expect(encodeText('é', 'latin1')).toBe('\xe9');
    expect(encodeText('中文', 'gbk')).toBe('\xd6\xd0\xce\xc4');
    expect(() => encodeText('Ж', 'latin1')).toThrow(UnicodeEncodeFailure);
    expect(() => encodeText('\ud800', 'utf-8')).toThrow(UnicodeEncodeFailure);
  });

  it('repr()', () => {
    expect(pyRepr('abc')).toBe("'abc'");
    expect(pyRepr("a'b")).toBe('"a\'b"');
    expect(pyRepr('a\x00\n')).toBe("'a\\x00\\n'");
  });
});

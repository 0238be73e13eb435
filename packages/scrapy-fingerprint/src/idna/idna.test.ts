import { describe, expect, it } from 'vitest';
import { idnaEncode } from './idna.js';
import { IdnaError } from '../errors/idna-error.js';
import { nameprep, nfkc32 } from './nameprep.js';

// Expected values from CPython 3.11 `str.encode('idna')` (IDNA 2003), which differ from Node's `url.domainToASCII`.
describe('idnaEncode (Python idna codec)', () => {
  it.each([
    ['bücher.de', 'xn--bcher-kva.de'],
    ['faß.de', 'fass.de'],
    ['ß.de', 'ss.de'],
    ['ςa.gr', 'xn--a-zmb.gr'],
    ['a\u200db.com', 'ab.com'],
    ['a\ufe00b.com', 'ab.com'],
    ['ｅｘａｍｐｌｅ.com', 'example.com'],
    ['ⅸ', 'ix'],
    ['a。b．c｡d', 'a.b.c.d'],
    ['Ǆ.com', 'xn--d-toa.com'],
    ['\u0301a.com', 'xn--a-wbb.com'],
    ['\u1100\u1161.kr', 'xn--o39a.kr'],
    ['שלום.com', 'xn--9dbne9b.com'],
    ['bücher.de.', 'xn--bcher-kva.de.'],
  ])('%s → %s', (host, ascii) => {
    expect(idnaEncode(host)).toBe(ascii);
  });

  it('uses NFKC of Unicode 3.2: a character unassigned in 3.2 is not decomposed', () => {
    // U+1F100 (Unicode 5.2) has a compatibility decomposition today ("0."); in 3.2 it is inert.
    expect('\u{1F100}'.normalize('NFKC')).toBe('0.');
    expect(idnaEncode('\u{1F100}.com')).toBe('xn--t07h.com');
  });

  it('uses the Unicode 3.2 decomposition of corrigendum characters', () => {
    // U+2F868 decomposed to U+2136A in Unicode 3.2, to U+36FC later.
    expect(nfkc32('\u{2F868}')).toBe('\u{2136A}');
    expect(idnaEncode('\u{2F868}.cn')).toBe('xn--j74i.cn');
  });

  it('passes all-ASCII names through unchecked, as Python does', () => {
    for (const host of ['XN--BCHER-KVA.DE', 'xn--zz.de', 'a_b.com', 'exa mple.com', '%41%42.com', '0x7f.1']) {
      expect(idnaEncode(host)).toBe(host);
    }
  });

  it.each([
    ['a'.repeat(64) + '.com', 'label longer than 63'],
    ['.example.com', 'empty label'],
    ['ü'.repeat(60) + '.com', 'punycode longer than 63'],
    ['xn--ü.com', 'ACE prefix on a non-ASCII label'],
    ['aش.com', 'bidi requirement 2 (RandAL with L)'],
    ['ش1.com', 'bidi requirement 3 (RandAL not last)'],
    ['\u{E0001}x.com', 'prohibited character (C.9 tag)'],
    ['.ü.com', 'empty label in a non-ASCII name'],
  ])('rejects %s (%s)', (host) => {
    expect(() => idnaEncode(host)).toThrow(IdnaError);
  });

  it('nameprep maps B.1 to nothing and case-folds with B.2', () => {
    expect(nameprep('Ex\u00ADAMPLE')).toBe('example');
    expect(nameprep('İ')).toBe('i\u0307');
  });
});

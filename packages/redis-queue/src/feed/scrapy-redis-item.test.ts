import { describe, expect, it } from 'vitest';
import { isIndexKey, topLevelKeys } from './json-key-order.js';
import { quotePlus, urlencodePairs } from './python-urlencode.js';
import { replaceQuery } from './python-urlsplit.js';
import { parseScrapyRedisItem } from './scrapy-redis-item.js';
import { storedFields } from '../core/record-format.js';

// Fast checks of the pieces; test/conformance/scrapy-redis-items.test.ts compares the whole against the real
// scrapy-redis on Debian's Scrapy.
const request = (raw: string) => {
  const item = parseScrapyRedisItem(Buffer.from(raw), false);
  if (item.kind !== 'r') throw new Error(`expected a request, got: ${item.reason}`);
  return storedFields(item.request.record);
};

describe('scrapy-redis item reading', () => {
  it("quote_plus / urlencode as Python's", () => {
    expect(quotePlus('a b~_.-*é')).toBe('a+b~_.-%2A%C3%A9');
    expect(urlencodePairs([['k', 'v'], ['k', '1&2']])).toBe('k=v&k=1%262');
  });

  it('keys in text order, integer-like ones included', () => {
    expect(topLevelKeys('{"b":1,"2":{"x":"}"},"a":[",",{"c":1}],"b":2}')).toEqual(['b', '2', 'a']);
    expect(isIndexKey('2')).toBe(true);
    expect(isIndexKey('02')).toBe(false);
  });

  it('urlsplit/urlunsplit: query replaced, fragment kept, host lower-cased, empty ? dropped', () => {
    expect(replaceQuery('https://X.example/p?a=1#f', 'b=2')).toBe('https://x.example/p?b=2#f');
    expect(replaceQuery('https://x.example?', undefined)).toBe('https://x.example');
    expect(replaceQuery('https://x.example/p?a=1', '')).toBe('https://x.example/p');
  });

  it('extra keys are form fields: the POST body, or the query of any other method', () => {
    expect(request('{"url":"https://x.example/p?a=1","method":"post","body":"x y","tag":["1","2"]}')).toMatchObject({
      url: 'https://x.example/p?a=1',
      method: 'POST',
      payload: 'body=x+y&tag=1&tag=2',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(request('{"url":"https://x.example/p?a=1","body":"x","meta":{"job":"7"}}')).toMatchObject({
      url: 'https://x.example/p?body=x',
      method: 'GET',
      userData: { job: '7' },
    });
  });

  it.each([
    ['{"url":"https://x.example","n":5}', /holds a JSON number/],
    ['{"meta":{}}', /without "url"/],
    ['{"url":"https://x.example","method":"FETCH"}', /unsupported "method"/],
    ['{"url":"https://x.example","meta":"job"}', /"meta" is a JSON string/],
    ['42', /JSON number/],
    ['ftp://x.example/a', /not JSON and not an http/],
  ])('%j is a dead letter with a reason', (raw, reason) => {
    const item = parseScrapyRedisItem(Buffer.from(raw), false);
    expect(item.kind === 'd' && item.reason).toMatch(reason);
  });

  it('two POSTs to one URL with different bodies get different uniqueKeys', () => {
    const a = parseScrapyRedisItem(Buffer.from('{"url":"https://x.example/f","method":"POST","q":"1"}'), false);
    const b = parseScrapyRedisItem(Buffer.from('{"url":"https://x.example/f","method":"POST","q":"2"}'), false);
    expect(a.kind === 'r' && b.kind === 'r' && a.request.uniqueKey !== b.request.uniqueKey).toBe(true);
  });
});

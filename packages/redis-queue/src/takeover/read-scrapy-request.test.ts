import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readScrapyRequest } from './scrapy-request-dict.js';
import { takeoverUniqueKey, toCrawleeRequest } from './to-crawlee-request.js';

// Pickles made at test time by the real Python + Scrapy 2.8 (Debian python3-scrapy): `Request.to_dict()`, pickled
// as scrapy-redis's picklecompat does, with each protocol 2-5; and the same dict through a JSON serializer.
const PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';
const SCRIPT = String.raw`
import json, pickle, sys
from scrapy import Request, Spider
class S(Spider):
    name = 's'
    def parse_item(self, response): pass
    def on_error(self, failure): pass
s = S()
r = Request('http://example.com/p?q=1', method='POST', headers={'X-Token': 'caf\xe9', 'Accept': ['a/b', 'c/d']},
            body='name=Zo\u00eb'.encode('utf-8'), meta={'depth': 3, 'ratio': 0.25, 'pair': (1, 'x'), 'none': None,
            'raw': b'\x00\xff', 'tags': {'k'}, 'big': 2**40, 'nested': {'l': [1, [2, 3]]}},
            priority=-7, dont_filter=True, cb_kwargs={'page': 2}, flags=['cached'], encoding='utf-8',
            callback=s.parse_item, errback=s.on_error)
d = r.to_dict(spider=s)
out = {str(p): pickle.dumps(d, protocol=p).hex() for p in (2, 3, 4, 5)}
jd = dict(d, headers={k.decode('utf-8'): [v.decode('utf-8') for v in vs] for k, vs in d['headers'].items()},
          body=d['body'].decode('utf-8'), meta=dict(d['meta'], raw='\x00\xff', tags=['k']))
out['json'] = json.dumps(jd).encode('utf-8').hex()
out['evil'] = pickle.dumps({'url': 'http://x/', 'meta': __import__('os').getcwd}, protocol=4).hex()
out['empty'] = pickle.dumps(Request('https://example.org/').to_dict(), protocol=2).hex()
print(json.dumps(out))
`;

function pythonPickles(): Record<string, Buffer> {
  const r = spawnSync(PYTHON, ['-c', SCRIPT], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${PYTHON} with Scrapy is needed (apt-get install python3-scrapy): ${r.stderr}`);
  const hex = JSON.parse(r.stdout) as Record<string, string>;
  return Object.fromEntries(Object.entries(hex).map(([k, v]) => [k, Buffer.from(v, 'hex')]));
}

describe('reading scrapy-redis frontier entries', () => {
  const pickles = pythonPickles();

  it.each(['2', '3', '4', '5'])('pickle protocol %s: every Scrapy request field maps onto the Crawlee request', (protocol) => {
    const raw = pickles[protocol]!;
    const dict = readScrapyRequest(raw, 'pickle');
    expect(dict).toMatchObject({ url: 'http://example.com/p?q=1', method: 'POST', priority: -7, dontFilter: true, flags: ['cached'] });
    expect(dict.body.toString('utf8')).toBe('name=Zoë');
    const request = toCrawleeRequest(dict);
    expect(request).toEqual({
      url: 'http://example.com/p?q=1',
      method: 'POST',
      // Scrapy stores header values as bytes (its default encoding is utf-8); names and values decode as latin-1.
      headers: { 'X-Token': Buffer.from('café', 'utf8').toString('latin1'), Accept: 'a/b, c/d' },
      payload: 'name=Zoë',
      userData: {
        label: 'parse_item',
        scrapy: {
          meta: { depth: 3, ratio: 0.25, pair: [1, 'x'], none: null, raw: '\u0000\u00ff', tags: ['k'], big: 2 ** 40, nested: { l: [1, [2, 3]] } },
          cbKwargs: { page: 2 },
          callback: 'parse_item',
          errback: 'on_error',
          priority: -7,
          dontFilter: true,
          flags: ['cached'],
          encoding: 'utf-8',
          cookies: {},
          requestClass: undefined,
        },
      },
    });
  });

  // A JSON SCHEDULER_SERIALIZER must write bytes as text (json cannot): bytes are read back as UTF-8.
  it('the JSON serializer (bytes written as UTF-8 text) gives the same request as the pickles', () => {
    const fromJson = toCrawleeRequest(readScrapyRequest(pickles['json']!, 'json'));
    const fromPickle = toCrawleeRequest(readScrapyRequest(pickles['4']!, 'pickle'));
    expect(fromJson).toEqual(fromPickle);
  });

  it('a default Request: GET, no payload, no label; a pickle naming other code is refused, never run', () => {
    expect(toCrawleeRequest(readScrapyRequest(pickles['empty']!, 'pickle'))).toMatchObject({ url: 'https://example.org/', method: 'GET', headers: {} });
    expect(toCrawleeRequest(readScrapyRequest(pickles['empty']!, 'pickle')).payload).toBeUndefined();
    expect(() => readScrapyRequest(pickles['evil']!, 'pickle')).toThrow(/posix\.getcwd|os\.getcwd/);
    expect(() => readScrapyRequest(Buffer.from('{"url": "http://x/"}'), 'pickle')).toThrow(/not a pickle/);
    expect(() => readScrapyRequest(pickles['4']!, 'json')).toThrow(/not JSON/);
  });

  it('dont_filter requests get a uniqueKey suffix from the raw bytes: stable across re-runs, distinct per entry', () => {
    const request = toCrawleeRequest(readScrapyRequest(pickles['2']!, 'pickle'));
    const a = takeoverUniqueKey(request, pickles['2']!, (r) => `fp:${r.url}`);
    expect(a).toBe(takeoverUniqueKey(request, pickles['2']!, (r) => `fp:${r.url}`));
    expect(a).toMatch(/^fp:http:\/\/example\.com\/p\?q=1#dont_filter-[0-9a-f]{12}$/);
    expect(takeoverUniqueKey(request, pickles['3']!, (r) => `fp:${r.url}`)).not.toBe(a);
  });
});

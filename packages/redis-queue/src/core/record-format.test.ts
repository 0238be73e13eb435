import { Request } from 'crawlee';
import { describe, expect, it } from 'vitest';
import { decodeRequest, encodeRequest, requestIdOf } from './request-codec.js';
import { encodeRecord, parseStoredRecord } from './record-format.js';

/** What Crawlee gives for a request: its `Request` built from the options, as JSON, with the queue's id. */
function crawleeView(request: Request): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
  for (const [key, value] of Object.entries(plain)) if (value === null) delete plain[key];
  return { ...plain, id: requestIdOf(request.uniqueKey) };
}

type Options = ConstructorParameters<typeof Request>[0];
const FP = 'c3ab8ff13720e8ad9047dd39466b3c8974e592c2';
const u = 'https://example.com/path/page?x=1&y=%20z';
const shapes: Array<[string, Options, (r: Request) => void]> = [
  ['defaults only', { url: u }, () => {}],
  ['http, no path', { url: 'http://example.com' }, () => {}],
  ['uppercase scheme (stored verbatim)', { url: 'HTTPS://Example.com/A' }, () => {}],
  ['unicode URL and userData', { url: 'https://例え.jp/ü?q=ü€', userData: { title: 'naïve — 漢字 😀', 'ключ': 'значение' } }, () => {}],
  ['uniqueKey that differs from the URL', { url: u, uniqueKey: 'custom-key:ü' }, () => {}],
  ['POST with a payload and headers', { url: u, method: 'POST', payload: '{"a":1}\n\r\t"q"', headers: { 'Content-Type': 'application/json', 'X-Ü': 'v\n' } }, () => {}],
  ['PUT, DELETE, lowercase method', { url: u, method: 'PUT' }, () => {}],
  ['lowercase method', { url: u, method: 'patch' }, () => {}],
  ['userData of every JSON type', {
    url: u,
    userData: { s: 'x', n: -1.5e-7, big: 9007199254740991, z: 0, t: true, f: false, nul: null, arr: [1, 'a', null, [], {}], obj: { deep: { deeper: [{ k: 'v' }] } }, empty: {}, emptyArr: [], label: 'DETAIL', depth: 3 },
  }, () => {}],
  ['label and crawlDepth (userData.__crawlee)', { url: u, label: 'LIST', userData: { depth: 1 } }, (r) => { r.crawlDepth = 4; }],
  ['retried with error messages', { url: u }, (r) => { r.retryCount = 3; r.pushErrorMessage(new Error('boom')); r.pushErrorMessage('second\nline'); }],
  ['noRetry, maxRetries, skipNavigation, keepUrlFragment', { url: `${u}#frag`, noRetry: true, maxRetries: 7, skipNavigation: true, keepUrlFragment: true }, () => {}],
  ['handled, with loadedUrl and sessionRotationCount', { url: u }, (r) => { r.handledAt = new Date(1_700_000_000_000).toISOString(); r.loadedUrl = `${u}&redirected=1`; r.sessionRotationCount = 2; }],
  ['extended uniqueKey', { url: u, method: 'POST', payload: 'a=1', useExtendedUniqueKey: true }, () => {}],
  ['a field at a non-default falsy value', { url: u, userData: { zero: 0 } }, (r) => { r.retryCount = 0; r.noRetry = false; }],
  ['empty headers given explicitly', { url: u, headers: {} }, () => {}],
  ['normalized multi-parameter URL (Crawlee sorts the query, drops utm_*)', { url: 'https://Example.com/p?b=2&a=1&utm_source=x', userData: { a: 1 } }, () => {}],
  ['normalized URL, retried', { url: 'http://example.com/p/?b=2&a=1' }, (r) => { r.retryCount = 2; }],
  ['fingerprint uniqueKey', { url: u, uniqueKey: FP, userData: { label: 'DETAIL' } }, () => {}],
  ['fingerprint uniqueKey, handled, with other fields', { url: u, uniqueKey: FP, method: 'POST', payload: 'a=1' }, (r) => { r.handledAt = new Date(0).toISOString(); }],
  ['upper-case hex uniqueKey (no fingerprint: stored as text)', { url: u, uniqueKey: FP.toUpperCase() }, () => {}],
];

describe('record format 2', () => {
  it.each(shapes)('%s: decode(encode(r)) deep-equals what Crawlee gives for r', (_name, options, mutate) => {
    const request = new Request(options);
    mutate(request);
    const encoded = encodeRequest(request);
    expect(encoded.record.toString()).not.toContain(encoded.id);
    const decoded = decodeRequest(encoded.record, encoded.id);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.request).toEqual(crawleeView(request));
    // And Crawlee rebuilds the same Request from it.
    expect(crawleeView(new Request(decoded.request as unknown as Options))).toEqual(crawleeView(request));
  });

  it('a request schema (not a Request) decodes with Crawlee\'s defaults filled in', () => {
    const schema: Record<string, unknown> = { url: 'https://x.y/a', uniqueKey: 'https://x.y/a', userData: { a: 1 } };
    const encoded = encodeRequest(schema);
    expect(encoded.record).toBe('Sx.y/a\n{"a":1}');
    const decoded = decodeRequest(encoded.record, encoded.id);
    expect(decoded.ok && decoded.request).toEqual({
      id: encoded.id, url: 'https://x.y/a', uniqueKey: 'https://x.y/a', method: 'GET', noRetry: false, retryCount: 0, errorMessages: [], headers: {}, userData: { a: 1 },
    });
  });

  it('stores only what differs from the defaults: the workload request is its URL and userData', () => {
    const url = `https://host-17.example.com/${'p'.repeat(40)}?page=123`;
    const record = encodeRequest(new Request({ url, userData: { label: 'DETAIL', depth: 2 } })).record;
    expect(record).toBe(`S${url.slice(8)}\n{"label":"DETAIL","depth":2}`);
    // A URL holding a newline falls back to one JSON object, and still round-trips.
    const odd = { url: 'https://x.y/a\nb', uniqueKey: 'k' };
    expect(encodeRecord(odd)[0]).toBe('J');
    expect(parseStoredRecord(encodeRecord(odd))).toMatchObject({ ok: true, fields: { url: 'https://x.y/a\nb', uniqueKey: 'k' } });
  });

  it('uniqueKeys cost nothing when they are the normalized URL and 20 bytes when they are a fingerprint', () => {
    const url = 'https://www.example.com/category/1/item-2?ref=list&page=3';
    const plain = encodeRequest(new Request({ url, uniqueKey: url, userData: { depth: 1 } })).record as string;
    const normalized = encodeRequest(new Request({ url, userData: { depth: 1 } }));
    expect(normalized.uniqueKey).toBe('https://www.example.com/category/1/item-2?page=3&ref=list');
    expect(normalized.record).toBe(`s${plain.slice(1)}`);
    const fingerprint = encodeRequest(new Request({ url, uniqueKey: FP, userData: { depth: 1 } })).record as Buffer;
    expect(fingerprint.length).toBe(plain.length + 21);
    expect(fingerprint.subarray(0, 21)).toEqual(Buffer.concat([Buffer.from('#'), Buffer.from(FP, 'hex')]));
    // A URL holding a newline (a "J" record) keeps a fingerprint as bytes too.
    const odd = encodeRecord({ url: 'https://x.y/a\nb', uniqueKey: FP }) as Buffer;
    expect(parseStoredRecord(odd)).toMatchObject({ ok: true, fields: { url: 'https://x.y/a\nb', uniqueKey: FP }, uniqueKeyFrom: 'fingerprint' });
  });

  it('a marker that does not hold is refused, never read as a wrong uniqueKey', () => {
    const url = 'https://x.y/a?b=2&a=1';
    const fpRecord = () => Buffer.concat([Buffer.from('#'), Buffer.from(FP, 'hex'), Buffer.from('Sx.y/a\n')]);
    const flipped = fpRecord();
    flipped[3]! ^= 0x10;
    const cases: Array<[string | Buffer, string, RegExp]> = [
      // The writer's uniqueKey was the URL as given; the record claims Crawlee's normalized URL.
      [`s${url.slice(8)}\n`, requestIdOf(url), /normalized URL the record claims/],
      [flipped, requestIdOf(FP), /fingerprint bytes of the record/],
      [fpRecord().subarray(0, 15), requestIdOf(FP), /shorter than its 20 bytes/],
      [fpRecord().toString('latin1'), requestIdOf(FP), /read as text/],
      [Buffer.concat([fpRecord().subarray(0, 21), Buffer.from('sx.y/a\n')]), requestIdOf(FP), /fingerprint marker beside another uniqueKey/],
      [Buffer.concat([fpRecord().subarray(0, 21), Buffer.from('Sx.y/a\n\n{"uniqueKey":"k"}')]), requestIdOf(FP), /fingerprint marker beside another uniqueKey/],
      [`s${url.slice(8)}\n\n{"uniqueKey":"k"}`, requestIdOf('k'), /normalized-URL marker beside a stored uniqueKey/],
    ];
    for (const [raw, id, reason] of cases) expect(decodeRequest(raw, id), String(raw)).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    expect(decodeRequest(fpRecord(), requestIdOf(FP))).toMatchObject({ ok: true, request: { url: 'https://x.y/a', uniqueKey: FP } });
  });

  it('0.1 JSON entries ({ ...request, id }) are still read', () => {
    const request = new Request({ url: u, userData: { label: 'L' } });
    const legacy = JSON.stringify({ ...request, id: requestIdOf(request.uniqueKey) });
    const decoded = decodeRequest(legacy, requestIdOf(request.uniqueKey));
    expect(decoded.ok && decoded.request).toEqual(crawleeView(request));
  });

  it('records that do not parse are refused with the reason (for the dead letters)', () => {
    const id = requestIdOf('https://x.y/a');
    const cases: Array<[string, RegExp]> = [
      ['Sx.y/a', /without its userData line/],
      ['Sx.y/a\n{"a":', /unreadable JSON in userData/],
      ['Sx.y/a\n[1]', /userData not a JSON object/],
      ['Sx.y/a\n\n{"method":', /unreadable JSON in the other fields/],
      ['Qx.y/a\n', /no known record tag/],
      ['J{"uniqueKey":"k"}', /without url/],
      ['Sx.y/a\n\n{"retryCount":"3"}', /not a valid Crawlee request: "retryCount"/],
      ['Sx.y/b\n', /uniqueKey's request id/],
      ['', /empty entry/],
    ];
    for (const [raw, reason] of cases) expect(decodeRequest(raw, id), raw).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    expect(decodeRequest(Buffer.from([0x53, 0xff, 0x0a]), id)).toMatchObject({ ok: false, reason: expect.stringMatching(/not UTF-8/) });
  });
});

import { describe, expect, it } from 'vitest';
import { parseStartUrlItem } from './parse-start-url.js';
import { storedFields } from '../core/record-format.js';

const parse = (raw: string | Buffer, alwaysEnqueue = false) =>
  parseStartUrlItem(typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw, alwaysEnqueue);
const request = (raw: string | Buffer) => {
  const item = parse(raw);
  if (item.kind !== 'r') throw new Error(`expected a request, got: ${item.reason}`);
  return storedFields(item.request.record);
};

describe('parseStartUrlItem (scrapy-redis start_urls format)', () => {
  it('a plain URL becomes a GET request', () => {
    expect(request('https://example.com/a')).toMatchObject({ url: 'https://example.com/a', method: 'GET' });
    expect(request('  https://example.com/a \n')).toMatchObject({ url: 'https://example.com/a' });
  });

  it('a JSON object gives url, method, headers, payload and userData (scrapy-redis meta and body too)', () => {
    expect(request('{"url":"https://example.com/b","meta":{"job":"7"}}')).toMatchObject({ url: 'https://example.com/b', userData: { job: '7' } });
    expect(
      request('{"url":"https://api.example.com/q","method":"post","headers":{"x-a":"1"},"payload":"{\\"q\\":1}","userData":{"k":2}}'),
    ).toMatchObject({ method: 'POST', headers: { 'x-a': '1' }, payload: '{"q":1}', userData: { k: 2 } });
    expect(request('{"url":"https://api.example.com/q","method":"PUT","body":"x"}')).toMatchObject({ payload: 'x' });
  });

  it('a JSON string is read as a URL', () => {
    expect(request('"https://example.com/d"')).toMatchObject({ url: 'https://example.com/d' });
  });

  it.each([
    ['{"meta":{}}', /without a string "url"/],
    ['42', /JSON number/],
    ['null', /JSON null/],
    ['[1,2]', /JSON array/],
    ['{"url":"https://exa', /not JSON and not an http\(s\) URL/],
    ['', /empty item/],
    ['   ', /empty item/],
    ['ftp://example.com/x', /not JSON and not an http\(s\) URL/],
    ['{"url":"mailto:a@b.c"}', /not an http\(s\) URL/],
    ['{"url":"https://example.com","method":"FETCH"}', /unsupported "method"/],
    ['{"url":"https://example.com","headers":{"a":1}}', /headers/],
    ['{"url":"https://example.com","userData":[1]}', /userData/],
  ])('%j is rejected with a reason', (raw, reason) => {
    const item = parse(raw);
    expect(item.kind).toBe('d');
    expect(item.kind === 'd' && item.reason).toMatch(reason);
  });

  it('bytes that are not UTF-8 are rejected', () => {
    const item = parse(Buffer.from([0xff, 0xfe]));
    expect(item).toEqual({ kind: 'd', reason: 'item is not valid UTF-8' });
  });

  it('the same URL gives the same request id, unless alwaysEnqueue is on', () => {
    const a = parse('https://example.com/a');
    const b = parse('https://example.com/a');
    expect(a.kind === 'r' && b.kind === 'r' && a.request.id === b.request.id).toBe(true);
    const c = parse('https://example.com/a', true);
    const d = parse('https://example.com/a', true);
    expect(c.kind === 'r' && d.kind === 'r' && c.request.id !== d.request.id).toBe(true);
  });
});

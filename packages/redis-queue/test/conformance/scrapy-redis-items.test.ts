import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScrapyRedisItem } from '../../src/feed/scrapy-redis-item.js';
import { storedFields } from '../../src/core/record-format.js';

const PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';

/** The vendored scrapy-redis (`shared/vendor/scrapy-redis/src`, found walking up; `$SCRAPY_REDIS_SRC` wins). */
function scrapyRedisSrc(): string {
  const fromEnv = process.env['SCRAPY_REDIS_SRC'];
  if (fromEnv) return fromEnv;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'vendor', 'scrapy-redis', 'src');
    if (existsSync(join(candidate, 'scrapy_redis', 'spiders.py'))) return candidate;
  }
  throw new Error('vendored scrapy-redis not found (shared/vendor/scrapy-redis/src above this package); set SCRAPY_REDIS_SRC');
}

// crawlee-redis-queue's scrapy-redis feed format against the real scrapy-redis: every item goes through the vendored
// RedisMixin.make_request_from_data on Debian's Scrapy 2.8 (a python subprocess) and through parseScrapyRedisItem;
// url, method, body, headers and meta must be equal byte for byte, and what scrapy-redis cannot turn into a request
// must be a dead letter here.

type Entry = [string, unknown];
const json = (entries: Entry[]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;

function corpus(): Array<string | Buffer> {
  const urls = [
    'https://x.example',
    'https://x.example/',
    'https://x.example/p?a=1',
    'https://x.example/p?a=1&b=2#frag',
    'http://x.example:8080/a/b;p?q=%20x',
    '  https://x.example/sp \n',
    'https://x.example/p#only',
    'https://user:pw@x.example/p?',
    'HTTPS://X.Example/P?A=1#',
    'https://USER:PW@X.Example:080/P',
    'https://x.example:/a',
  ];
  const fields: Entry[][] = [
    [],
    [['k', 'v']],
    [['body', 'x y']],
    [['formdata', { a: '1', b: '2' }]],
    [['headers', { 'X-A': '1' }]],
    [['q', ['1', '2']], ['é', 'ü ☃']],
    [['z', '~*+/=&%'], ['2', 'a'], ['10', 'b']],
    [['e', []]],
    [['payload', '{"q":1}'], ['url_cookie_key', 'fertxsas']],
    [['a b', 'c d'], ['emoji', '😀']],
    [['n', 5]],
    [['nested', [{}]]],
    [['t', true]],
    [['nul', null]],
  ];
  const methods: Array<unknown> = [undefined, 'GET', 'post', 'PUT', 'delete'];
  const metas: Array<unknown> = [undefined, { job: '7', n: 1, deep: { a: [1, 2] } }, null, [], {}];
  const items: Array<string | Buffer> = [];
  for (const url of urls) {
    for (const f of fields) {
      for (const method of methods) {
        for (const meta of metas) {
          const entries: Entry[] = [['url', url]];
          if (method !== undefined) entries.push(['method', method]);
          if (meta !== undefined) entries.push(['meta', meta]);
          items.push(json([...entries, ...f]));
        }
      }
      items.push(json([...f, ['url', url]]));
    }
    items.push(url);
  }
  items.push(
    '',
    '   ',
    '42',
    'null',
    '[1,2]',
    '{"meta":{}}',
    '{"url":null}',
    '{"url":5}',
    '{"url":"https://x.example","method":5}',
    '{"url":"https://x.example","meta":"job"}',
    '{"url":"https://x.example","k":"\\ud800"}',
    '{"url":"https://x.example","a":"1","a":"2","b":"3"}',
    Buffer.from([0xff, 0xfe]),
    'not a url',
  );
  return items;
}

interface ScrapyResult {
  error?: string;
  skipped?: boolean;
  url?: string;
  method?: string;
  body?: string;
  headers?: Record<string, string[]>;
  meta?: Record<string, unknown>;
}

function runScrapyRedis(items: ReadonlyArray<string | Buffer>): ScrapyResult[] {
  const script = fileURLToPath(new URL('./python/make_request_from_data.py', import.meta.url));
  const input = items.map((i) => Buffer.from(i).toString('base64')).join('\n') + '\n';
  const run = spawnSync(PYTHON, [script], { input, env: { ...process.env, PYTHONPATH: scrapyRedisSrc() }, maxBuffer: 64 << 20 });
  if (run.status !== 0) {
    throw new Error(`make_request_from_data.py failed (needs Debian's python3-scrapy: apt-get install -y python3-scrapy python3-redis): ${run.stderr.toString()}`);
  }
  return run.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as ScrapyResult);
}

describe('scrapy-redis feed items: parseScrapyRedisItem = the real make_request_from_data', () => {
  it('builds the same url, method, body, headers and meta for every item scrapy-redis accepts, and rejects the rest', () => {
    const items = corpus();
    const scrapy = runScrapyRedis(items);
    expect(scrapy).toHaveLength(items.length);
    let compared = 0;
    let rejected = 0;
    items.forEach((item, i) => {
      const want = scrapy[i]!;
      const got = parseScrapyRedisItem(Buffer.from(item), false);
      const label = `item ${JSON.stringify(Buffer.from(item).toString())}`;
      if (want.error !== undefined || want.skipped) {
        expect(got.kind, `${label}: scrapy-redis said ${want.error ?? 'skipped'}`).toBe('d');
        rejected++;
        return;
      }
      expect(got.kind, `${label}: ${got.kind === 'd' ? got.reason : ''}`).toBe('r');
      if (got.kind !== 'r') return;
      const request = storedFields(got.request.record) as { url: string; method: string; payload?: string; headers?: Record<string, string>; userData?: Record<string, unknown> };
      expect(request.url, label).toBe(want.url);
      expect(request.method, label).toBe(want.method);
      expect(Buffer.from(request.payload ?? '', 'utf8').toString('base64'), label).toBe(want.body);
      const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k, [v]]));
      expect(headers, label).toEqual(want.headers);
      const { __crawlee: _internal, ...userData } = request.userData ?? {};
      expect(userData, label).toEqual(want.meta);
      compared++;
    });
    // Enough of both kinds for the comparison to mean something.
    expect(compared).toBeGreaterThan(1000);
    expect(rejected).toBeGreaterThan(200);
  });

  it('reads a JSON string as a URL (an extension: scrapy-redis raises on it)', () => {
    expect(runScrapyRedis(['"https://x.example/a"'])[0]!.error).toMatch(/AttributeError/);
    const got = parseScrapyRedisItem(Buffer.from('"https://x.example/a"'), false);
    expect(got.kind === 'r' && (storedFields(got.request.record) as { url: string }).url).toBe('https://x.example/a');
  });
});

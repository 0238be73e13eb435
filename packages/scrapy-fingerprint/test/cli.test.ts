import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtFile } from './built-dist.js';
import { locateVectors } from './vectors.js';

let cli: string;
const run = (args: string[], input: string) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });

describe('crawlee-scrapy-fingerprint CLI (built dist/cli.js)', () => {
  beforeAll(() => {
    cli = builtFile('cli.js');
  });

  it('prints "<fingerprint> <url>" per URL line', () => {
    const r = run([], 'http://example.com/\n\nhttps://example.com/?b=2&a=1\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'cebe46deeab7ee5915824a38cf73ee6f7eb0aba5 http://example.com/\n' +
        `${run([], 'https://example.com/?a=1&b=2\n').stdout.split(' ')[0]} https://example.com/?b=2&a=1\n`,
    );
  });

  it('honours --recipe and --method', () => {
    expect(run(['--recipe', 'scrapy-2.6'], 'http://example.com/\n').stdout).toBe('628735d3a16b67b1dd5fbfbd10a15f2c28362bbd http://example.com/\n');
    expect(run(['--recipe', 'scrapy-redis'], 'http://example.com/\n').stdout).toBe('db723d399cb551c9ef8eca77ed8dbed4a0522b4f http://example.com/\n');
    expect(run(['--method', 'POST'], 'http://example.com/\n').stdout).not.toContain('cebe46de');
    const bad = run(['--recipe', 'nope'], '');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('nope');
  });

  it("--scrapy-request '<=2.12' rewrites #! URLs as Scrapy 2.12 and older do; bad values exit non-zero", () => {
    const url = 'http://example.com/ajax.html?k1=v1&k2=v2#!key=value\n';
    expect(run(['--recipe', 'scrapy-redis', '--scrapy-request', '<=2.12'], url).stdout).toBe(
      '4f2c2aa719ca39b1f70bcb927e5a7ae191bac5b7 http://example.com/ajax.html?k1=v1&k2=v2#!key=value\n',
    );
    expect(run(['--scrapy-request', '<=2.12'], url).stdout.split(' ')[0]).toBe('229f52f716c4c954d234b0d30e14c7042f01383f');
    expect(run(['--scrapy-request', '2.13+'], url).stdout).toBe(run([], url).stdout);
    const jsonl = JSON.parse(run(['--jsonl', '--scrapy-request', '<=2.12'], JSON.stringify({ id: 'a', url: url.trim() }) + '\n').stdout);
    expect(jsonl.request_url).toBe('http://example.com/ajax.html?k1=v1&k2=v2&_escaped_fragment_=key%3Dvalue');
    expect(jsonl.fp_redis).toBe('4f2c2aa719ca39b1f70bcb927e5a7ae191bac5b7');
    const unknown = run(['--scrapy-request', '2.8'], url);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('2.13+');
    const legacy = run(['--recipe', 'scrapy-2.6', '--scrapy-request', '2.13+'], url);
    expect(legacy.status).toBe(2);
    expect(legacy.stderr).toContain('only exists in Scrapy 2.11');
  });

  it('reports rejected URLs on stderr, keeps going, exits 1', () => {
    const r = run([], 'relative/x\nhttp://example.com/\n');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('cebe46deeab7ee5915824a38cf73ee6f7eb0aba5 http://example.com/\n');
    expect(r.stderr).toContain('Missing scheme in request url: relative/x');
  });

  it('--help describes both modes', () => {
    const r = run(['--help'], '');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--jsonl');
    expect(r.stdout).toContain('--recipe');
  });

  it('--jsonl reproduces the shared expected vectors', () => {
    const { dir } = locateVectors();
    expect(dir, 'shared/conformance/fingerprint not found (set SCRAPY_CONFORMANCE_DIR)').not.toBeNull();
    const r = run(['--jsonl'], readFileSync(join(dir!, 'inputs.jsonl'), 'utf8'));
    expect(r.status).toBe(0);
    const got = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const expected = readFileSync(join(dir!, 'expected.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(got).toHaveLength(expected.length);
    const fields = ['id', 'canonical_url', 'safe_url', 'request_url', 'fp_url', 'fp27', 'fp26', 'fp_redis', 'error'];
    const mismatches = expected.flatMap((e, i) =>
      fields.filter((f) => (e[f] ?? null) !== got[i]![f]).map((f) => `${String(e['id'])} ${f}: ${JSON.stringify(e[f])} != ${JSON.stringify(got[i]![f])}`),
    );
    expect(mismatches).toEqual([]);
  });

  it('--jsonl answers a malformed line with an error object and exits 1 at the end', () => {
    const r = run(['--jsonl'], 'not json\n{"id":"x","url":"http://h:1x/"}\n');
    expect(r.status).toBe(1);
    const [a, b] = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(a!['id']).toBeNull();
    expect(String(a!['error'])).toContain('InvalidInput');
    expect(b!['error']).toBe("ValueError: Port could not be cast to integer value as '1x'");
    expect(b!['fp27']).toBeNull();
  });

  it('--jsonl keeps the input id on a line without a url, with the error, and exits 1', () => {
    const r = run(['--jsonl'], '{"id":"a"}\n{"id":"b","url":"http://example.com/"}\n');
    expect(r.status).toBe(1);
    const [a, b] = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(a).toEqual({ id: 'a', error: 'InvalidInput: expected a "url" string' });
    expect(b!['id']).toBe('b');
    expect(b!['fp27']).toBe('cebe46deeab7ee5915824a38cf73ee6f7eb0aba5');
  });

  it('--jsonl exits 0 when every line is valid, even if Scrapy rejects a URL (that is an expected result)', () => {
    const r = run(['--jsonl'], '{"id":"x","url":"http://h:1x/"}\n');
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as Record<string, unknown>)['id']).toBe('x');
  });

  it('--help quotes the example URL (an unquoted & would background the command in a shell)', () => {
    const r = run(['--help'], '');
    expect(r.stdout).toContain("echo 'https://example.com/?b=2&a=1' |");
  });
});

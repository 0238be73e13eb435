import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors/usage-error.js';
import { OptionRangeError } from '../src/errors/option-range-error.js';
import { OPTION_RANGES, POSTGRES_DOCS_DIR, resolveOptions, type RawOptions } from '../src/options.js';
import { maskUrl } from '../src/mask-credentials.js';
import { runCli } from './helpers/run-cli.js';

/** A folder that exists but has no index.html (the crawl of a folder starts there). */
const folderWithoutIndex = mkdtempSync(join(tmpdir(), 'no-index-'));

describe('resolveOptions', () => {
  it('defaults: 2 workers, bloom, the PostgreSQL docs when installed, redis://127.0.0.1:6379', () => {
    const options = resolveOptions({}, {});
    expect(options).toMatchObject({ workers: 2, dedup: 'bloom', redisUrl: 'redis://127.0.0.1:6379', redisUrlGiven: false, join: false });
    if (existsSync(POSTGRES_DOCS_DIR)) expect(options).toMatchObject({ site: POSTGRES_DOCS_DIR, demo: false, docsMissing: false });
    else expect(options).toMatchObject({ demo: true, docsMissing: true });
  });

  it('--memory forces the one-process fallback; --demo the demo site', () => {
    expect(resolveOptions({ memory: true, demo: true }, {})).toMatchObject({ memory: true, demo: true, docsMissing: false });
  });

  it('takes REDIS_URL from the environment, --redis over it', () => {
    expect(resolveOptions({}, { REDIS_URL: 'redis://10.0.0.5:6380' }).redisUrl).toBe('redis://10.0.0.5:6380');
    expect(resolveOptions({ redis: 'redis://h:1' }, { REDIS_URL: 'redis://10.0.0.5:6380' }).redisUrl).toBe('redis://h:1');
  });

  it('every numeric option has a documented range and a typed error outside it', () => {
    for (const [flag, range] of Object.entries(OPTION_RANGES)) {
      const key = flag.slice(2).replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()) as keyof RawOptions;
      const over = () => resolveOptions({ [key]: String(range.max + 1) }, {});
      const under = () => resolveOptions({ [key]: String(range.min - 1) }, {});
      expect(over, flag).toThrow(OptionRangeError);
      expect(under, flag).toThrow(OptionRangeError);
      expect(() => resolveOptions({ [key]: String(range.max) }, {}), flag).not.toThrow();
    }
  });

  it('--redis: one URL, or a Redis Cluster\'s seed nodes separated by commas; --shards is unset unless given', () => {
    const seeds = resolveOptions({ redis: 'redis://10.0.0.1:7000, redis://10.0.0.2:7000' }, {});
    expect(seeds.redisUrl).toBe('redis://10.0.0.1:7000,redis://10.0.0.2:7000');
    expect(resolveOptions({}, { REDIS_URL: 'rediss://u:p@a:1,rediss://u:p@b:2' }).redisUrl).toBe('rediss://u:p@a:1,rediss://u:p@b:2');
    expect('shards' in seeds).toBe(false);
    expect(resolveOptions({ demo: true, shards: '12' }, {}).shards).toBe(12);
    // Every seed's password is masked where the list is printed.
    expect(maskUrl('redis://u:secret@a:1,redis://u:secret@b:2')).toBe('redis://u:***@a:1,redis://u:***@b:2');
  });

  it('politeness: --host-delay-secs takes fractions of a second, --max-per-host a whole number; unset by default', () => {
    expect(resolveOptions({ demo: true, hostDelaySecs: '0.25', maxPerHost: '2', enqueueStrategy: 'all' }, {})).toMatchObject({
      hostDelaySecs: 0.25,
      maxPerHost: 2,
      enqueueStrategy: 'all',
    });
    const defaults = resolveOptions({ demo: true }, {});
    expect(defaults.enqueueStrategy).toBe('same-hostname');
    expect('hostDelaySecs' in defaults || 'maxPerHost' in defaults).toBe(false);
  });

  it('the default --output is per queue, so two runs from one folder never share it', () => {
    const a = resolveOptions({ demo: true }, {});
    const b = resolveOptions({ demo: true }, {});
    expect(a.output).not.toBe(b.output);
    expect(a.output).toMatch(new RegExp(`storage/distributed-cheerio/${a.runQueueName}/pages\\.jsonl$`));
    expect(resolveOptions({ demo: true, queue: 'q1' }, {}).output).toMatch(/storage\/distributed-cheerio\/q1\/pages\.jsonl$/);
  });

  it.each([
    [{ dedup: 'bits' }, /--dedup must be one of bloom, set, none/],
    [{ workers: '0' }, /--workers must be a whole number >= 1/],
    [{ workers: 'two' }, /--workers must be a whole number >= 1/],
    [{ workers: '100000' }, /--workers must be at most 64.*--join/],
    [{ site: '/no/such/folder' }, /--site \/no\/such\/folder: no such folder/],
    [{ site: folderWithoutIndex }, /--site .*no-index-.*: the folder has no index.html/],
    [{ demo: true, keyPrefix: 'foo:rq:x' }, /--key-prefix: .*namespace marker ":rq:"/],
    [{ demo: true, keyPrefix: 'foo:ds' }, /--key-prefix: .*namespace marker ":ds:"/],
    [{ startUrl: 'not a url' }, /--start-url is not a valid URL/],
    [{ startUrl: 'ftp://example.com/' }, /--start-url must use http: or https:/],
    [{ redis: 'http://127.0.0.1:6379' }, /--redis must use redis: or rediss:/],
    [{ maxRequests: '-3' }, /--max-requests must be a whole number >= 1/],
    [{ killOneWorkerAfter: '0' }, /--kill-one-worker-after must be a whole number >= 1/],
    [{ site: '.', startUrl: 'http://a/' }, /only one of --site, --start-url and --demo/],
    [{ join: true }, /--join needs --queue NAME/],
    [{ queue: 'a b' }, /--queue must be/],
    [{ join: true, queue: 'q', demo: true }, /--join only starts workers.*drop --demo/],
    [{ join: true, queue: 'q', site: '.' }, /--join only starts workers/],
    [{ join: true, queue: 'q', startUrl: 'http://a/' }, /--join only starts workers/],
    [{ memory: true, killOneWorkerAfter: '5' }, /cannot run with --memory/],
    [{ lockSecs: '2592001' }, /--lock-secs must be at most 86400 \(range 6-86,400\)/],
    [{ lockSecs: '100000' }, /--lock-secs must be at most 86400/],
    [{ lockSecs: '5' }, /--lock-secs must be a whole number >= 6/],
    [{ lockSecs: '1e3' }, /--lock-secs must be a whole number >= 6/],
    [{ concurrency: '1001' }, /--concurrency must be at most 1000/],
    [{ concurrency: '0' }, /--concurrency must be a whole number >= 1/],
    [{ progressSecs: '0' }, /--progress-secs must be a whole number >= 1/],
    [{ progressSecs: '3601' }, /--progress-secs must be at most 3600/],
    [{ maxRequests: '1000000001' }, /--max-requests must be at most 1000000000/],
    [{ killOneWorkerAfter: '99999999999999999999' }, /--kill-one-worker-after must be at most 1000000000 \(range 1-1,000,000,000\)/],
    [{ workers: '65' }, /--workers must be at most 64/],
    [{ redis: 'redis://127.0.0.1:6379/db2' }, /the path of a Redis URL is the database index/],
    [{ hostDelaySecs: '-1' }, /--host-delay-secs must be a number of seconds \(up to 3 decimals\) >= 0 \(range 0-86,400\)/],
    [{ hostDelaySecs: '0.0001' }, /--host-delay-secs must be a number of seconds \(up to 3 decimals\)/],
    [{ hostDelaySecs: '1e3' }, /--host-delay-secs must be a number of seconds/],
    [{ hostDelaySecs: '86400.5' }, /--host-delay-secs must be at most 86400.*fractions allowed/],
    [{ maxPerHost: '0' }, /--max-per-host must be a whole number >= 1 \(range 1-10,000\)/],
    [{ maxPerHost: '1.5' }, /--max-per-host must be a whole number >= 1/],
    [{ maxPerHost: '10001' }, /--max-per-host must be at most 10000/],
    [{ memory: true, hostDelaySecs: '1' }, /enforced by the Redis queue; they cannot run with --memory/],
    [{ memory: true, maxPerHost: '2' }, /enforced by the Redis queue; they cannot run with --memory/],
    [{ redis: 'redis://a:1,' }, /--redis: an empty entry in the list/],
    [{ redis: 'redis://a:1,http://b:2' }, /--redis must use redis: or rediss:/],
    [{ redis: 'redis://a:1,rediss://b:2' }, /one scheme, all redis:\/\/ or all rediss:\/\//],
    [{ redis: 'redis://a:1/2,redis://b:2' }, /a Redis Cluster, which has only database 0/],
    [{ shards: '0' }, /--shards must be a whole number >= 1 \(range 1-256\)/],
    [{ shards: '257' }, /--shards must be at most 256/],
    [{ shards: '12', memory: true }, /--shards splits a Redis queue.*cannot run with --memory/],
    [{ shards: '12', hostDelaySecs: '1' }, /--host-delay-secs and --max-per-host need --shards 1/],
    [{ shards: '2', maxPerHost: '2' }, /--host-delay-secs and --max-per-host need --shards 1/],
    [{ enqueueStrategy: 'everything' }, /--enqueue-strategy must be one of same-hostname, same-domain, same-origin, all, got "everything"/],
  ])('rejects %j', (raw, message) => {
    expect(() => resolveOptions(raw, {})).toThrow(UsageError);
    expect(() => resolveOptions(raw, {})).toThrow(message);
  });
});

describe('CLI on bad input', () => {
  it('exits 2 with the reason before starting or writing anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distributed-cheerio-cli-'));
    try {
      const output = join(dir, 'pages.jsonl');
      const summary = join(dir, 'summary.json');
      const bad = await runCli(['--dedup', 'cuckoo', '--output', output, '--summary-json', summary]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--dedup must be one of bloom, set, none, got "cuckoo"');
      const unknown = await runCli(['--wokers', '3']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/unknown option '--wokers'/);
      expect(existsSync(output) || existsSync(summary)).toBe(false);
      writeFileSync(join(dir, 'a-file'), 'kept');
      const reserved = await runCli(['--queue', 'default', '--demo', '--output', output]);
      expect(reserved.code).toBe(2);
      expect(reserved.stderr).toContain('--queue default is taken by Crawlee');
      for (const [flag, path] of [
        ['--summary-json', '/proc/no-such-dir/summary.json'],
        ['--summary-json', '/proc/x.json'],
        ['--summary-json', dir],
        ['--output', '/proc/x.jsonl'],
        ['--summary-json', join(dir, 'a-file', 'x.json')],
      ] as const) {
        const unwritable = await runCli(['--demo', '--output', flag === '--output' ? path : output, ...(flag === '--summary-json' ? [flag, path] : [])]);
        expect(unwritable.code, `${flag} ${path}`).toBe(2);
        expect(unwritable.stderr).toContain(`${flag} ${path} cannot be written`);
      }
      expect(existsSync(output) || existsSync(summary)).toBe(false);
      // A dangling symlink is checked at its target and left as it was.
      const link = join(dir, 'link.json');
      symlinkSync(join(dir, 'missing', 'target.json'), link);
      const viaLink = await runCli(['--demo', '--summary-json', link, '--output', '/proc/x.jsonl']);
      expect(viaLink.code).toBe(2);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(existsSync(join(dir, 'missing'))).toBe(false);
      // Above the queue package's own maximum (30 days): refused up front, before serving or starting anything.
      const tooLong = await runCli(['--demo', '--lock-secs', '2592001', '--output', output]);
      expect(tooLong.code).toBe(2);
      expect(tooLong.stderr).toContain('--lock-secs must be at most 86400');
      expect(tooLong.stdout + tooLong.stderr).not.toMatch(/serving|started worker/);
      expect(existsSync(output)).toBe(false);
      const help = await runCli(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--kill-one-worker-after <n>');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

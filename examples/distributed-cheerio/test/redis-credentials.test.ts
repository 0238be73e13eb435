import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { crawl, outputDir, runCli } from './helpers/run-cli.js';
import { spawnCli } from './helpers/spawn-cli.js';

// A redis-server of this file's own, with a password and a restricted ACL user (never CONFIG SET on the shared one).
const PASSWORD = 'pw-s3cret-1b2c';
let server: RedisServerHandle;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  const admin = new Redis(server.url);
  try {
    await admin.call('ACL', 'SETUSER', 'reader', 'on', `>${PASSWORD}`, '~other:*', '+get');
    // Passes the probe (PING, INFO) and may use every key, but not TIME, which the queue runs (also inside scripts).
    await admin.call('ACL', 'SETUSER', 'notime', 'on', `>${PASSWORD}`, '~*', '&*', '+@all', '-time');
    await admin.config('SET', 'requirepass', PASSWORD);
  } finally {
    admin.disconnect();
  }
});
afterAll(async () => {
  await server?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function withAuth(user: string, password: string, path = ''): string {
  return `redis://${user}:${password}@127.0.0.1:${server.port}${path}`;
}

describe('a Redis that answers is never replaced by a private redis-server', () => {
  it.each([
    ['a wrong password', () => withAuth('', 'wrong-password-9'), /refused the user name or password \(WRONGPASS\)/],
    ['no password', () => server.url, /requires a password \(NOAUTH\)/],
    ['an ACL user without the needed commands', () => withAuth('reader', PASSWORD), /does not let this user do what the crawl needs \(NOPERM/],
    ['a database index out of range', () => withAuth('', PASSWORD, '/99'), /has no database 99 .*DB index is out of range/],
    ['rediss:// on a plain port', () => withAuth('', PASSWORD).replace('redis:', 'rediss:'), /TLS connection to Redis at rediss:\/\/:\*\*\*@.* failed/],
  ])('%s: exit 1 with what to do, nothing started or written, password never printed', async (_case, url, message) => {
    const dir = outputDir();
    dirs.push(dir);
    const output = join(dir, 'pages.jsonl');
    const summary = join(dir, 'summary.json');
    const result = await runCli(['--demo', '--redis', url(), '--output', output, '--summary-json', summary], {}, 60_000);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toMatch(message);
    expect(text).not.toContain('starting redis-server');
    expect(text).not.toContain('started worker');
    expect(text).not.toContain('serving ');
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('wrong-password-9');
    expect(readdirSync(dir)).toEqual([]);
  }, 90_000);

  it('the right password (through REDIS_URL): the crawl runs there; no password in the log, the summary or the output', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const { result, summary, records } = await crawl(dir, ['--demo', '--workers', '2', '--dedup', 'set'], { REDIS_URL: withAuth('', PASSWORD) });
    expect(summary.mode).toBe('redis');
    expect(summary.uniquePages).toBe(28);
    expect(summary.redisUrl).toBe(`redis://:***@127.0.0.1:${server.port}`);
    const everything = result.stdout + result.stderr + readFileSync(join(dir, 'summary.json'), 'utf8') + JSON.stringify(records);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).toContain(':***@127.0.0.1');
    expect(existsSync(join(dir, 'pages.jsonl.parts'))).toBe(false);
  }, 180_000);

  it("the password never appears in a worker process's command line (what `ps` shows every user)", async () => {
    const dir = outputDir();
    dirs.push(dir);
    const run = spawnCli(['--demo', '--workers', '1', '--output', join(dir, 'pages.jsonl')], { REDIS_URL: withAuth('', PASSWORD) });
    const cmdlines: string[] = [];
    for (let i = 0; i < 600 && cmdlines.length === 0; i++) {
      for (const pid of run.workerPids()) {
        try {
          cmdlines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
        } catch {
          /* already gone */
        }
      }
      await sleep(20);
    }
    expect(await run.exited).toBe(0);
    expect(cmdlines.length).toBeGreaterThan(0);
    expect(cmdlines[0]).toContain('worker.js');
    expect(cmdlines.join(' ')).not.toContain(PASSWORD);
  }, 120_000);

  it('a password in a rejected --redis value is masked in the usage error', async () => {
    const result = await runCli(['--demo', '--redis', `http://:${PASSWORD}@127.0.0.1:1`], {}, 30_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--redis must use redis: or rediss:');
    expect(result.stderr).not.toContain(PASSWORD);
  }, 60_000);

  it('an ACL denial found after the probe (no +time) prints what to allow, without a stack trace', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const result = await runCli(['--demo', '--redis', withAuth('notime', PASSWORD), '--output', join(dir, 'pages.jsonl')], {}, 60_000);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toMatch(/ACL|\+time/);
    expect(text).not.toContain('the crawl failed');
    expect(text).not.toContain('CAUSE');
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toContain(PASSWORD);
  }, 90_000);

  it('a host name that does not resolve is reported as such, nothing started', async () => {
    const result = await runCli(['--demo', '--redis', `redis://u:${PASSWORD}@nonexistent.invalid:6379`], {}, 60_000);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toContain('The host "nonexistent.invalid" does not resolve');
    expect(text).not.toContain('did not answer like Redis');
    expect(text).not.toContain('started worker');
    expect(text).not.toContain(PASSWORD);
  }, 60_000);
});

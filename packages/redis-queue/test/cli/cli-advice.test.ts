// What a CLI user is told: connection errors name what the CLI takes (the --redis URL, REDIS_URL), never a library
// option; `help` and `version` reach the CLI through npx (which takes --help and --version for itself), and the
// README shows those forms.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../src/core/version.js';
import { runBin } from './run-bin.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const README = fileURLToPath(new URL('../../README.md', import.meta.url));

let server: RedisServerHandle;
let tlsServer: RedisServerHandle;
beforeAll(async () => {
  [server, tlsServer] = await Promise.all([startRedisServer({ password: 'right-pw' }), startRedisServer({ tls: true })]);
});
afterAll(async () => {
  await Promise.all([server?.destroy(), tlsServer?.destroy()]);
});

/** `npx ...args` from the repository root, as the README tells a user to run it. */
function npx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npx', args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Library options a CLI user cannot pass. */
const LIBRARY_ADVICE = /redisOptions|connectTimeoutSecs|`redis` option/;

describe('crawlee-redis error advice', () => {
  it('NOAUTH and WRONGPASS: put the user and password in the --redis URL or REDIS_URL', async () => {
    const none = await runBin(['ls', '--redis', `redis://127.0.0.1:${server.port}`]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('requires a password and none was given (NOAUTH)');
    expect(none.stderr).toContain('--redis redis://USER:PASSWORD@host:port');
    expect(none.stderr).toContain('REDIS_URL');
    expect(none.stderr).not.toMatch(LIBRARY_ADVICE);

    const wrong = await runBin(['stats', 'q', '--redis', `redis://:wrong-pw@127.0.0.1:${server.port}`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the user name or password (WRONGPASS');
    expect(wrong.stderr).toContain('--redis redis://USER:PASSWORD@host:port');
    expect(wrong.stderr).not.toMatch(LIBRARY_ADVICE);
    expect(wrong.stderr).not.toContain('wrong-pw');

    const right = await runBin(['ls', '--json'], { env: { REDIS_URL: `redis://:right-pw@127.0.0.1:${server.port}` } });
    expect(right.code, right.stderr).toBe(0);
    expect(JSON.parse(right.stdout)).toEqual([]);
  });

  it('TLS with a private CA: NODE_EXTRA_CA_CERTS, which then works', async () => {
    const untrusted = await runBin(['ls', '--redis', tlsServer.url]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('TLS to Redis at');
    expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.crt');
    expect(untrusted.stderr).not.toMatch(LIBRARY_ADVICE);
    const trusted = await runBin(['ls', '--json', '--redis', tlsServer.url], { env: { NODE_EXTRA_CA_CERTS: tlsServer.tls!.caFile } });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toEqual([]);
  });

  it('an unreachable Redis: the CLI timeout and --redis / REDIS_URL, not connectTimeoutSecs', async () => {
    const res = await runBin(['ls', '--redis', 'redis://127.0.0.1:1']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/cannot connect to Redis at redis:\/\/127\.0\.0\.1:1 within 5 s/);
    expect(res.stderr).toContain('--redis URL or REDIS_URL');
    expect(res.stderr).not.toMatch(LIBRARY_ADVICE);
  });
});

describe('crawlee-redis help and version through npx', () => {
  it('`help`, `version` and the forms after `--` print the CLI\'s own help and version', async () => {
    const help = await npx(['--no', 'crawlee-redis', 'help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: crawlee-redis <command> [options]');
    expect(help.stdout).toMatch(/^\s+version\b/m);
    const version = await npx(['--no', 'crawlee-redis', 'version']);
    expect(version).toMatchObject({ code: 0, stdout: `${PACKAGE_VERSION}\n` });
    const json = await runBin(['version', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ version: PACKAGE_VERSION });
    expect((await npx(['--no', 'crawlee-redis', '--', '--version'])).stdout).toBe(`${PACKAGE_VERSION}\n`);
    expect((await npx(['--no', 'crawlee-redis', '--', '--help'])).stdout).toContain('Usage: crawlee-redis <command> [options]');
    // The option before the command is npm's: the URL arrives as the command, and the CLI says where --redis goes.
    const eaten = await npx(['--no', 'crawlee-redis', '--redis', 'redis://127.0.0.1:1', 'ls']);
    expect(eaten.code).toBe(2);
    expect(eaten.stderr).toContain('redis://127.0.0.1:1 is not a command');
    expect(eaten.stderr).toContain('npx crawlee-redis ls --redis URL');
    const commandHelp = await npx(['--no', 'crawlee-redis', 'help', 'watch']);
    expect(commandHelp.stdout).toContain('Usage: crawlee-redis watch [options] <queue>');
  });

  it('the README shows the forms that reach the CLI, and how to get it outside this repository', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain('npx --no crawlee-redis help');
    expect(readme).toContain('npx --no crawlee-redis version');
    expect(readme).toContain('npm install crawlee-redis-queue crawlee ioredis');
    expect(readme).toMatch(/then `npx crawlee-redis/);
    // The forms npx answers itself: `--help` / `--version` right after the package name, without `--` before them.
    expect(readme).not.toMatch(/npx [^`\n]*crawlee-redis (--help|--version|-h|-V)\b/);
  });
});

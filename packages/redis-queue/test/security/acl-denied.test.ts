import { randomUUID } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { RedisPermissionError } from '../../src/errors/redis-permission-error.js';
import { openRedisRequestQueue } from '../../src/open-redis-request-queue.js';
import { req } from '../helpers/world.js';

// ACL users on the shared Redis, each with a unique name, deleted afterwards. A refused key or command is a
// RedisPermissionError that names the key patterns and commands the queue needs, never a raw NOPERM or a
// REDIS_SCRIPT_ERROR, and nothing of the refused call is written.

const url = inject('redisUrl');
const run = randomUUID().slice(0, 8);
const prefix = `acl-${run}`;
const admin = new Redis(url);
const users = {
  otherKeys: `acl-keys-${run}`,
  noTime: `acl-time-${run}`,
  noScript: `acl-script-${run}`,
};
const asUser = (user: string) => url.replace('redis://', `redis://${user}:pw@`);

beforeAll(async () => {
  await admin.call('ACL', 'SETUSER', users.otherKeys, 'on', '>pw', '~other:*', '+@all');
  await admin.call('ACL', 'SETUSER', users.noTime, 'on', '>pw', '~*', '&*', '+@all', '-time');
  await admin.call('ACL', 'SETUSER', users.noScript, 'on', '>pw', '~*', '&*', '+@all', '-script', '-evalsha', '-eval');
});
afterAll(async () => {
  await admin.call('ACL', 'DELUSER', ...Object.values(users));
  await admin.quit();
});

async function keysOfPrefix(p: string): Promise<string[]> {
  return admin.keys(`*${p}:*`);
}

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const sink = (write: (s: string) => void) => new Writable({ write: (chunk, _e, done) => (write(String(chunk)), done()) });
  const code = await runCli(['node', 'crawlee-redis', ...args], { stdout: sink(() => undefined), stderr: sink((s) => (stderr += s)), stdin: new PassThrough() });
  return { code, stderr };
}

describe('ACL refusals are RedisPermissionError with the rules to add', () => {
  it('keys outside the user\'s patterns: the queue names ~{<prefix>:rq:* and the scripting commands; nothing written', async () => {
    const error = await openRedisRequestQueue('q', { redis: asUser(users.otherKeys), keyPrefix: prefix, workerStats: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RedisPermissionError);
    const message = (error as Error).message;
    expect(message).toContain(`~{${prefix}:rq:*`);
    expect(message).toContain(`~${prefix}:rq:index`);
    expect(message).toMatch(/EVALSHA, EVAL and SCRIPT/);
    expect(await keysOfPrefix(prefix)).toEqual([]);
  });

  it('crawlee-redis stats as that user: exit 1 with the typed message, not a raw NOPERM', async () => {
    const { code, stderr } = await cli(['stats', 'q', '--redis', asUser(users.otherKeys), '--key-prefix', prefix]);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/^crawlee-redis: NOPERM/);
    expect(stderr).not.toContain('crawlee-redis: crawlee-redis:');
    expect(stderr).toContain('Redis refused this user');
    expect(stderr).toContain(`~{${prefix}:rq:*`);
  });

  it('crawlee-redis ls (plain commands, no script) as that user: the same typed message', async () => {
    const { code, stderr } = await cli(['ls', '--redis', asUser(users.otherKeys), '--key-prefix', prefix]);
    expect(code).toBe(1);
    expect(stderr).not.toContain('crawlee-redis: crawlee-redis:');
    expect(stderr).toContain('Redis refused this user');
    expect(stderr).toContain(`~${prefix}:rq:index`);
  });

  it('a Redis that refuses TIME (called inside every script): RedisPermissionError, not REDIS_SCRIPT_ERROR', async () => {
    const error = await openRedisRequestQueue('q', { redis: asUser(users.noTime), keyPrefix: `${prefix}-t`, workerStats: false })
      .then((q) => q.addRequest(req(1)))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RedisPermissionError);
    expect((error as RedisPermissionError).code).toBe('REDIS_PERMISSION');
    expect((error as Error).message).toMatch(/A command the script calls is refused/);
    expect((error as Error).message).toMatch(/TIME among them/);
  });

  it('a Redis that refuses SCRIPT / EVALSHA / EVAL: RedisPermissionError naming the command', async () => {
    const error = await openRedisRequestQueue('q', { redis: asUser(users.noScript), keyPrefix: `${prefix}-s`, workerStats: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RedisPermissionError);
    expect((error as RedisPermissionError).command).toMatch(/^(evalsha|eval|script)$/);
    expect((error as Error).message).toMatch(/EVALSHA, EVAL and SCRIPT/);
  });
});

import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@crawlee-distributed/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { mayStartPrivateRedis } from '../src/coordinator/choose-storage.js';
import { outputDir, runCli } from './helpers/run-cli.js';

// The README: a refused connection starts a private redis-server only for 127.0.0.1, localhost and ::1.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('which refused Redis addresses get a private redis-server', () => {
  it('only 127.0.0.1, localhost and ::1', () => {
    expect(
      [
        'redis://127.0.0.1:6379',
        'redis://localhost:6399/2',
        'redis://[::1]:6379',
        'rediss://u:p@localhost:1',
      ].map(mayStartPrivateRedis),
    ).toEqual([true, true, true, true]);
    expect(
      [
        'redis://127.0.0.2:6399',
        'redis://127.1.2.3:6379',
        'redis://10.0.0.5:6379',
        'redis://redis.internal:6379',
      ].map(mayStartPrivateRedis),
    ).toEqual([false, false, false, false]);
  });

  it('redis://127.0.0.2:<refused port>: exit 1 naming the hosts that get one, nothing started or written', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const port = await freePort();
    const result = await runCli(
      ['--demo', '--redis', `redis://127.0.0.2:${port}`, '--output', join(dir, 'pages.jsonl')],
      {},
      60_000,
    );
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toContain('127.0.0.1, localhost, ::1');
    expect(text).not.toContain('starting redis-server');
    expect(text).not.toContain('started worker');
    expect(text).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir)).toEqual([]);
  }, 90_000);
});

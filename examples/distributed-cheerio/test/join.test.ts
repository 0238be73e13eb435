import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '@crawlee-distributed/test-utils';
import { runCli } from './helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const dir = mkdtempSync(join(tmpdir(), 'distributed-cheerio-join-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--join', () => {
  it('on a queue that does not exist: exit 1 with what to do, no stack trace, nothing written', async () => {
    const name = `join-test-${randomUUID()}`;
    const output = join(dir, 'pages.jsonl');
    const summary = join(dir, 'summary.json');
    const result = await runCli(['--join', '--queue', name, '--redis', redisUrl, '--output', output, '--summary-json', summary]);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toContain(`queue ${name} on ${redisUrl} has no requests: start the seeding machine first (without --join)`);
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toContain('every page crawled');
    expect(existsSync(output) || existsSync(summary)).toBe(false);
    const redis = new Redis(redisUrl);
    try {
      const keys: string[] = [];
      for await (const batch of redis.scanStream({ match: `*${name}*`, count: 1000 })) keys.push(...(batch as string[]));
      expect(keys).toEqual([]);
      expect(await redis.sismember('crawlee:rq:index', name)).toBe(0);
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it('against a Redis that does not answer: exit 1 with the message, no stack trace', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const result = await runCli(['--join', '--queue', 'q', '--redis', url]);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toContain(`Nothing answers at ${url}`);
    expect(text).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('with --demo is a usage error (exit 2)', async () => {
    const result = await runCli(['--join', '--queue', 'q', '--demo']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--join only starts workers');
  }, 60_000);
});

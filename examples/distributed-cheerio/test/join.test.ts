import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openRedisRequestQueue, RedisQueueAdmin } from 'crawlee-redis-queue';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, sleep } from '@crawlee-distributed/test-utils';
import { runCli } from './helpers/run-cli.js';
import { dropQueueKeys, spawnCli } from './helpers/spawn-cli.js';

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

  it('on an empty queue whose seeding holds a producer lease: starts, waits for the work, finishes after the release', async () => {
    const name = `join-lease-${randomUUID()}`;
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url!);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>late</title></head><body>late page</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The seeding side: a lease first, the request much later (a slow seeding script).
    const admin = new RedisQueueAdmin({ redis: redisUrl, name });
    const lease = await admin.openProducerLease({ leaseSecs: 5 });
    const output = join(dir, 'lease-pages.jsonl');
    // --dedup none: the seeding side below adds with a plain queue (no Bloom store to share; the subject is the lease).
    const run = spawnCli(['--join', '--queue', name, '--redis', redisUrl, '--workers', '1', '--dedup', 'none', '--output', output]);
    try {
      const deadline = Date.now() + 60_000;
      while (run.workerPids().length === 0 && Date.now() < deadline) {
        expect(run.child.exitCode, run.output()).toBeNull();
        await sleep(100);
      }
      await sleep(3000); // the worker polls an empty queue: the lease keeps it from finishing
      expect(run.child.exitCode, run.output()).toBeNull();
      const queue = await openRedisRequestQueue(name, { redis: redisUrl, workerStats: false });
      await queue.addRequest({ url: `${origin}/late` });
      await lease.release();
      expect(await run.exited, run.output()).toBe(0);
      expect(hits).toContain('/late');
      expect(existsSync(output)).toBe(true);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      await admin.close();
      await new Promise((resolve) => server.close(resolve));
      await dropQueueKeys(redisUrl, name);
    }
  }, 120_000);

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

import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { crawl, outputDir, runCli } from './helpers/run-cli.js';
import { dropQueueKeys } from './helpers/spawn-cli.js';

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
const queues: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const q of queues) await dropQueueKeys(redisUrl, q);
});

describe('politeness of a named queue across runs', () => {
  it('the queue keeps the limits it was created with: other flags are refused up front, no flags take its own', async () => {
    const queue = `polite-${randomUUID().slice(0, 8)}`;
    queues.push(queue);
    const dir = outputDir();
    dirs.push(dir);
    const args = ['--demo', '--queue', queue, '--redis', redisUrl, '--workers', '2'];

    const first = await crawl(dir, [...args, '--host-delay-secs', '0.2', '--max-per-host', '2', '--max-requests', '4']);
    expect(first.summary.stoppedByMaxRequests).toBe(true);
    const admin = new RedisQueueAdmin({ redis: redisUrl, name: queue });
    try {
      expect(await admin.politenessStats()).toMatchObject({ enabled: true, minDelaySecs: 0.2, maxConcurrencyPerHost: 2 });
      const before = await admin.stats();

      const other = await runCli([...args, '--host-delay-secs', '1', '--output', join(dir, 'other.jsonl')]);
      expect(other.code).toBe(1);
      expect(other.stdout + other.stderr).toContain(
        `queue ${queue} was created with --host-delay-secs 0.2 --max-per-host 2, this run asks for --host-delay-secs 1`,
      );
      expect(other.stdout + other.stderr).not.toMatch(/started worker|serving/);
      expect(await admin.stats()).toEqual(before); // nothing written

      const resumed = await crawl(dir, args);
      expect(resumed.summary.allPagesCrawled).toBe(true);
      expect(resumed.summary.politeness).toMatchObject({ hostDelaySecs: 0.2, maxPerHost: 2 });
    } finally {
      await admin.close();
    }
  }, 120_000);
});

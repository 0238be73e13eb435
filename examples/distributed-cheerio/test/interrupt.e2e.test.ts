import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sleep } from '@crawlee-distributed/test-utils';
import { RedisQueueAdmin } from 'crawlee-redis-queue';
import { POSTGRES_DOCS_DIR } from '../src/options.js';
import { CLI, crawl, outputDir } from './helpers/run-cli.js';
import { dropQueueKeys, spawnCli, waitForPages } from './helpers/spawn-cli.js';

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Ctrl-C during worker start-up', () => {
  it('forks no more workers once SIGINT arrives, and leaves no worker process behind', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const child = spawn(
      process.execPath,
      [CLI, '--demo', '--workers', '12', '--redis', redisUrl, '--output', join(dir, 'pages.jsonl')],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let interrupted = false;
    const onData = (d: Buffer) => {
      output += d.toString();
      if (!interrupted && output.includes('started worker-2 ')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);

    expect(interrupted).toBe(true);
    expect(output).toContain('interrupted: stopping the workers');
    const pids = [...output.matchAll(/started worker-\d+ \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.length).toBeLessThan(12);
    expect(code).not.toBeNull();
    // The coordinator waits for its workers before it exits; allow the OS a moment to reap them.
    for (let i = 0; i < 20 && pids.some(isAlive); i++) await sleep(250);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 150_000);
});

describe('Ctrl-C in the middle of a crawl', () => {
  it('hands every lock back at once, says it stopped as asked (exit 130), no Crawlee resume advice; the rerun resumes', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const queue = `interrupt-${randomUUID().slice(0, 8)}`;
    const args = ['--site', POSTGRES_DOCS_DIR, '--queue', queue, '--redis', redisUrl, '--workers', '2', '--output', join(dir, 'pages.jsonl')];
    try {
      const run = spawnCli([...args, '--concurrency', '2']);
      await waitForPages(redisUrl, queue, 30);
      run.child.kill('SIGINT');
      const code = await run.exited;
      const text = run.output();
      expect(code).toBe(130);
      expect(text).not.toContain('CRAWLEE_PURGE_ON_START');
      expect(text).toMatch(/stopped by SIGINT as asked: \d+ request\(s\) left pending, every lock handed back; rerun with --queue/);
      expect(text).not.toMatch(/failed \(|NOT every page/);
      expect(text).toMatch(/worker-1 +\d+ pages +stopped as asked/);
      const admin = new RedisQueueAdmin({ redis: redisUrl, name: queue });
      const stats = await admin.stats();
      await admin.close();
      // Right after the exit, not after --lock-secs: the interrupted workers released their locks.
      expect(stats.locked).toBe(0);
      expect(stats.pending).toBeGreaterThan(0);
      const { summary, records } = await crawl(dir, args, {});
      expect(summary.allPagesCrawled).toBe(true);
      expect(records.length).toBe(summary.queue.handled);
    } finally {
      await dropQueueKeys(redisUrl, queue);
    }
  }, 300_000);
});

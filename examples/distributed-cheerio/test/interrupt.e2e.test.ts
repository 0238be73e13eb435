import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sleep } from '@crawlee-distributed/test-utils';
import { CLI, outputDir } from './helpers/run-cli.js';

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

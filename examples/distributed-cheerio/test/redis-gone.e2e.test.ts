import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startRedisServer, type RedisServerHandle } from '@crawlee-distributed/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { outputDir } from './helpers/run-cli.js';
import { spawnCli, waitForPages } from './helpers/spawn-cli.js';

// Redis stopped by PID in the middle of a crawl, for good: every process of the run stops with one clear line and a
// non-zero exit after the reconnect budget, and a stop signal ends the run within seconds whatever Redis does.

let server: RedisServerHandle | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.destroy();
  server = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function crawlThenStopRedis(env: NodeJS.ProcessEnv) {
  server = await startRedisServer();
  const dir = outputDir();
  dirs.push(dir);
  const queue = `gone-${randomUUID().slice(0, 8)}`;
  const run = spawnCli(['--demo', '--queue', queue, '--redis', server.url, '--workers', '2', '--concurrency', '2', '--output', join(dir, 'pages.jsonl')], env);
  await waitForPages(server.url, queue, 3);
  await server.stop();
  return run;
}

describe('Redis gone for good during a crawl', () => {
  it('coordinator and workers each print one line naming the address and exit 1 after REDIS_RECONNECT_TIMEOUT_SECS', async () => {
    const run = await crawlThenStopRedis({ REDIS_RECONNECT_TIMEOUT_SECS: '2' });
    const stoppedAt = Date.now();
    const code = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('hung'), 30_000))]);
    if (code === 'hung') run.child.kill('SIGKILL');
    const text = run.output();
    expect(code).toBe(1);
    expect(Date.now() - stoppedAt).toBeLessThan(20_000);
    const lost = text.split('\n').filter((line) => line.includes('lost the connection to Redis'));
    // One line per process: the coordinator and each worker (a worker that exited first may miss its turn).
    expect(lost.filter((line) => line.includes('coordinator:'))).toHaveLength(1);
    expect(lost.length).toBeGreaterThanOrEqual(2);
    expect(lost.length, lost.join("\n")).toBeLessThanOrEqual(3);
    for (const line of lost) expect(line).toContain(`redis://127.0.0.1:${server!.port}`);
    expect(text).not.toContain('Unhandled error event');
    expect(text).not.toMatch(/^\s+at /m); // no stack trace
  }, 150_000);

  it('SIGTERM while Redis is gone stops the run within seconds (exit 143), not after the reconnect budget', async () => {
    const run = await crawlThenStopRedis({ REDIS_RECONNECT_TIMEOUT_SECS: '120' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalledAt = Date.now();
    run.child.kill('SIGTERM');
    const code = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('hung'), 30_000))]);
    if (code === 'hung') run.child.kill('SIGKILL');
    expect(code).toBe(143);
    expect(Date.now() - signalledAt).toBeLessThan(12_000);
    expect(run.output()).toContain('does not answer');
    for (let i = 0; i < 20 && run.workerPids().some(isAlive); i++) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(run.workerPids().filter(isAlive)).toEqual([]);
  }, 150_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

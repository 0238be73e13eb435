import { createServer } from 'node:net';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '@crawlee-distributed/test-utils';
import { outputDir, runCli } from './helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('checks before the fleet starts', () => {
  it('a start URL that refuses: one clear error naming the refused connection, no worker started, nothing written', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const port = await freePort();
    const result = await runCli(['--start-url', `http://127.0.0.1:${port}/`, '--redis', redisUrl, '--output', join(dir, 'p.jsonl')], {}, 60_000);
    const text = result.stdout + result.stderr;
    expect(result.code).toBe(1);
    expect(text).toContain(`the start URL http://127.0.0.1:${port}/ cannot be fetched: connection refused (ECONNREFUSED)`);
    expect(text).not.toContain('started worker');
    expect(text).not.toMatch(/busy machine|timeouts?/i);
    expect(text).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir)).toEqual([]);
  }, 90_000);

  it('a start URL that does not answer like HTTP is not retried by a fleet either', async () => {
    // A TCP server that closes every connection at once: not refused, but no HTTP answer.
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const result = await runCli(['--start-url', `http://127.0.0.1:${port}/`, '--redis', redisUrl], {}, 60_000);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/cannot be fetched: (ECONNRESET|socket hang up|Error)/);
      expect(result.stdout + result.stderr).not.toContain('started worker');
    } finally {
      server.close();
    }
  }, 90_000);

  it('the seeding is complete before the first worker starts (no worker can find the queue empty and finish early)', async () => {
    const dir = outputDir();
    dirs.push(dir);
    const result = await runCli(['--demo', '--workers', '2', '--redis', redisUrl, '--output', join(dir, 'p.jsonl')], {}, 120_000);
    expect(result.code).toBe(0);
    const seeded = result.stdout.indexOf('seeded with');
    const started = result.stdout.indexOf('started worker-1');
    expect(seeded).toBeGreaterThan(-1);
    expect(started).toBeGreaterThan(seeded);
  }, 150_000);
});

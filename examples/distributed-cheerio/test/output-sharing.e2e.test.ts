import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sleep } from '@crawlee-distributed/test-utils';
import { runCli } from './helpers/run-cli.js';
import { spawnCli } from './helpers/spawn-cli.js';

const redisUrl = inject('redisUrl');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function lines(path: string): number {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').length;
}

describe('two runs started from one folder', () => {
  it('with the default --output: each writes its own file, both complete, nothing else lands in the folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'distributed-cheerio-cwd-'));
    dirs.push(cwd);
    // INIT_CWD is what `npm start` sets; the default output is relative to it.
    const env = { INIT_CWD: cwd, REDIS_URL: redisUrl };
    const [a, b] = await Promise.all([runCli(['--demo', '--workers', '2'], env), runCli(['--demo', '--workers', '2'], env)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const outputs = [a, b].map((r) => /output\s+(\S+pages\.jsonl)/.exec(r.stdout)?.[1] ?? '');
    expect(outputs[0]).not.toBe(outputs[1]);
    for (const output of outputs) {
      expect(output.startsWith(join(cwd, 'storage', 'distributed-cheerio'))).toBe(true);
      expect(lines(output)).toBe(28);
    }
    // Only the two outputs: no shared Crawlee ./storage of the workers, no records folder of a finished per-run queue.
    expect(readdirSync(cwd)).toEqual(['storage']);
    expect(readdirSync(join(cwd, 'storage'))).toEqual(['distributed-cheerio']);
    for (const queue of readdirSync(join(cwd, 'storage', 'distributed-cheerio'))) {
      expect(readdirSync(join(cwd, 'storage', 'distributed-cheerio', queue))).toEqual(['pages.jsonl']);
    }
  }, 240_000);

  it('with the same --output while the first still runs: the second exits 2 and the first keeps its results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distributed-cheerio-shared-output-'));
    dirs.push(dir);
    const output = join(dir, 'pages.jsonl');
    const first = spawnCli(['--demo', '--workers', '2', '--redis', redisUrl, '--output', output]);
    for (let i = 0; i < 400 && !first.output().includes('started worker-1'); i++) await sleep(50);
    expect(first.output()).toContain('started worker-1');
    const second = await runCli(['--demo', '--workers', '2', '--redis', redisUrl, '--output', output], {}, 60_000);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/--output .*pages\.jsonl is being written by another run \(pid \d+\)/);
    expect(second.stdout + second.stderr).not.toContain('started worker');
    expect(await first.exited).toBe(0);
    expect(lines(output)).toBe(28);
    // The lock went with the first run: a third run may now use the path.
    const third = await runCli(['--demo', '--workers', '1', '--redis', redisUrl, '--output', output], {}, 120_000);
    expect(third.code, third.stderr).toBe(0);
  }, 240_000);
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageRecord } from '../../src/worker/page-record.js';
import type { RunSummary } from '../../src/coordinator/summary.js';

/** The built CLI: the e2e tests run exactly what `npm start` runs. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli.js ...args` to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 280_000): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (turbo runs it before the tests)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh folder for one run's output files. */
export function outputDir(): string {
  return mkdtempSync(join(tmpdir(), 'distributed-cheerio-test-'));
}

/** Runs a crawl that writes its summary and merged output into `dir`, and reads both back. */
export async function crawl(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ result: CliResult; summary: RunSummary; records: PageRecord[] }> {
  const summaryFile = join(dir, 'summary.json');
  const outputFile = join(dir, 'pages.jsonl');
  const result = await runCli([...args, '--summary-json', summaryFile, '--output', outputFile], env);
  if (result.code !== 0) {
    throw new Error(`the crawl exited with ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`);
  }
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
  const records = readFileSync(outputFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as PageRecord);
  return { result, summary, records };
}

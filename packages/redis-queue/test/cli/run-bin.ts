// Runs the built `crawlee-redis` bin (dist/cli/bin.js, what users install) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx turbo run build --filter=crawlee-redis-queue)`);
}

/**
 * Runs the bin to its end. stdin is a pipe (never a TTY), fed with `input` and closed.
 *
 * @param args - command line arguments
 * @param options - stdin text, extra environment
 */
export function runBin(args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}): Promise<BinResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Starts the bin and leaves it running (for `metrics` and `watch`). @param args - arguments */
export function startBin(args: string[]): { child: ChildProcess; output: () => string; errors: () => string; exited: Promise<number | null> } {
  assertBuilt();
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => stdout, errors: () => stderr, exited };
}

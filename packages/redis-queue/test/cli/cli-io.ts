import { PassThrough, Writable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

/** What one in-process `crawlee-redis` run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `crawlee-redis` in this process (stdin a pipe, never a TTY).
 * @param args - arguments, `--redis` and `--key-prefix` included
 * @param input - stdin text
 */
export async function runCliIn(args: string[], input = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const sink = (write: (s: string) => void) => new Writable({ write: (chunk, _e, done) => (write(String(chunk)), done()) });
  const stdin = new PassThrough();
  stdin.end(input);
  const code = await runCli(['node', 'crawlee-redis', ...args], { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), stdin });
  return { code, stdout, stderr };
}

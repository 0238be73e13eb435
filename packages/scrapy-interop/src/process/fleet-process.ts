import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { stopPid } from '@crawlee-distributed/test-utils';

/** A child process of the harness (a Scrapy or a Crawlee worker): its output, its exit, and a stop by PID. */
export class FleetProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** stdout and stderr, interleaved as they arrived. */
  output = '';
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  private readonly logFile?: WriteStream;
  private waiters: { pattern: RegExp; resolve: () => void }[] = [];

  /**
   * Starts `command args`; output is kept in memory and, when `logFile` is given, written there too.
   * @throws Error when the process cannot be started (ENOENT and the like)
   */
  constructor(
    readonly label: string,
    command: string,
    args: string[],
    options: SpawnOptions & { logFile?: string } = {},
  ) {
    const { logFile, ...spawnOptions } = options;
    this.child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    if (this.child.pid === undefined) throw new Error(`${label}: could not start ${command}`);
    this.pid = this.child.pid;
    if (logFile) this.logFile = createWriteStream(logFile);
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      this.output += text;
      this.logFile?.write(text);
      this.waiters = this.waiters.filter((w) => (w.pattern.test(this.output) ? (w.resolve(), false) : true));
    };
    this.child.stdout!.on('data', onData);
    this.child.stderr!.on('data', onData);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.logFile?.end();
        resolve(code ?? signal ?? 'unknown');
      });
    });
  }

  /** Resolves when the output matches `pattern`; rejects after `timeoutMs` or when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void> {
    if (pattern.test(this.output)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`${this.label}: no ${pattern} within ${timeoutMs} ms; output:\n${this.tail()}`)),
        timeoutMs,
      );
      void this.exited.then((code) => {
        clearTimeout(timer);
        if (pattern.test(this.output)) resolve();
        else reject(new Error(`${this.label} exited (${code}) before ${pattern}; output:\n${this.tail()}`));
      });
      this.waiters.push({ pattern, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Resolves with the exit code once the process exits; stops it (and rejects) after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<number | string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void this.stop().then(() =>
          reject(
            new Error(
              `${this.label} did not finish within ${timeoutMs} ms; stopped. Output:\n${this.tail()}`,
            ),
          ),
        );
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGTERM by PID, SIGKILL after 10 s. Idempotent. */
  async stop(): Promise<void> {
    await stopPid(this.pid);
    await this.exited;
  }

  /** The last lines of the output, for error messages. */
  tail(lines = 40): string {
    return this.output.split('\n').slice(-lines).join('\n');
  }
}

import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log } from 'crawlee';
import { WORKER_CONFIG_ENV, type WorkerConfig, type WorkerMessage } from '../worker/worker-config.js';

/** How a worker process ended. */
export interface WorkerExit {
  worker: string;
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  killedByCoordinator: boolean;
  /** The worker stopped early because it was asked to (Ctrl-C), after handing its locks back. */
  stopped: boolean;
  /** Locks it handed back as it ended (from its last IPC message). */
  released: number;
  /** Why it stopped early, from its last IPC message (`requested`, `site-gone`, ...). */
  stopReason?: WorkerMessage['reason'];
}

/** The compiled worker entry, next to the compiled CLI in dist/. */
const WORKER_ENTRY = fileURLToPath(new URL('./fleet-worker.js', import.meta.url));

/**
 * The worker processes of one run (child_process.fork of dist/fleet-worker.js). Each gets its own records file and a
 * name; a replacement for a killed worker gets the next number.
 */
export class WorkerFleet {
  private readonly running = new Map<string, ChildProcess>();
  private readonly killed = new Set<string>();
  private readonly done: Promise<void>[] = [];
  private started = 0;
  private stopping = false;
  readonly exits: WorkerExit[] = [];
  readonly recordsFiles: string[] = [];

  constructor(
    private readonly base: Omit<WorkerConfig, 'worker' | 'recordsFile'>,
    /** Folder of the records files (one per worker). */
    private readonly recordsDir: string,
    /** Prefix of worker names, e.g. the host name when several machines share a named queue. */
    private readonly namePrefix = '',
    /** Prefix of the records files: earlier runs of the same queue keep theirs in the same folder. */
    private readonly filePrefix = '',
  ) {}

  /**
   * Starts one more worker process, unless {@link WorkerFleet.stopAll} was called (a Ctrl-C during start-up must not
   * fork the rest of the fleet).
   *
   * @returns the worker's name, or undefined when the fleet is stopping
   */
  start(): string | undefined {
    if (this.stopping) return undefined;
    this.started++;
    const worker = `${this.namePrefix}worker-${this.started}`;
    const recordsFile = join(this.recordsDir, `${this.filePrefix}worker-${this.started}.jsonl`);
    this.recordsFiles.push(recordsFile);
    const config: WorkerConfig = { ...this.base, worker, recordsFile };
    const child = fork(WORKER_ENTRY, [], {
      env: { ...process.env, [WORKER_CONFIG_ENV]: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Its own process group: a Ctrl-C in the terminal reaches the coordinator only, which asks each worker to stop
      // (SIGTERM: hand back the locks, then exit), instead of Crawlee's own SIGINT pause in every worker.
      detached: true,
    });
    this.running.set(worker, child);
    let last: WorkerMessage | undefined;
    child.on('message', (message: WorkerMessage) => (last = message));
    this.done.push(
      new Promise((resolve) => {
        child.once('exit', (code, signal) => {
          this.running.delete(worker);
          const killedByCoordinator = this.killed.has(worker);
          const stopped = last?.type === 'stopped' || (this.stopping && signal === 'SIGTERM');
          this.exits.push({ worker, pid: child.pid ?? -1, code, signal, killedByCoordinator, stopped, released: last?.released ?? 0, ...(last !== undefined ? { stopReason: last.reason } : {}) });
          if (!killedByCoordinator && !stopped && code !== 0) log.error(`${worker} (pid ${child.pid}) exited with ${signal ?? code}`);
          resolve();
        });
      }),
    );
    log.info(`started ${worker} (pid ${child.pid})`);
    return worker;
  }

  /** True once {@link WorkerFleet.stopAll} was called: no more workers are started. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Worker processes started so far (replacements included). */
  get startedCount(): number {
    return this.started;
  }

  get alive(): number {
    return this.running.size;
  }

  /**
   * SIGKILLs the oldest running worker (no shutdown, its locks stay until they expire) and starts a replacement.
   *
   * @returns the name of the killed worker and of its replacement (undefined when the fleet is stopping), or
   *   undefined when none was running or the fleet is stopping
   */
  killOneAndReplace(): { killed: string; replacement: string | undefined } | undefined {
    if (this.stopping) return undefined;
    const first = this.running.entries().next();
    if (first.done === true) return undefined;
    const [worker, child] = first.value;
    this.killed.add(worker);
    child.kill('SIGKILL');
    log.warning(`chaos: sent SIGKILL to ${worker} (pid ${child.pid}); its locked requests come back when its heartbeat lapses (about 5 s)`);
    return { killed: worker, replacement: this.start() };
  }

  /** Resolves when every worker started so far (and any started while waiting) has exited. */
  async waitForAll(): Promise<void> {
    let seen = -1;
    while (seen !== this.done.length) {
      seen = this.done.length;
      await Promise.all(this.done);
    }
  }

  /** Stops every running worker and starts no more (Ctrl-C, or a fatal coordinator error). */
  stopAll(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.stopping = true;
    for (const child of this.running.values()) child.kill(signal);
  }
}

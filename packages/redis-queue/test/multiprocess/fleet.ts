// Starts, watches and kills the worker processes of the multi-process tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseWorkerLog, type WorkerLog } from './worker-log.js';

const WORKER_SCRIPT = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** What worker.mjs reads from its argv (see the header of worker.mjs). */
export interface WorkerConfig {
  redisUrl: string;
  keyPrefix: string;
  queueName: string;
  /** Highest request number of the graph. */
  max: number;
  /** Handler sleep per request, in ms. */
  handlerMs: number;
  /** Handler sleep for particular requests, in ms (overrides handlerMs). */
  slow?: Record<number, number>;
  /** Prolong the lock of a handler that sleeps longer than this, every this many ms (0 or unset: never). */
  heartbeatMs?: number;
  /** Requests whose long handler gets no lock prolongation (the control case). */
  noHeartbeat?: number[];
  /** Fixed concurrency of each crawler. */
  concurrency: number;
  /** BasicCrawler requestHandlerTimeoutSecs, also passed to openRedisRequestQueue. */
  handlerTimeoutSecs: number;
  /** Lock time in seconds, passed to openRedisRequestQueue and forced on queue.requestLockSecs. */
  lockSecs?: number;
  /** Requests whose handler SIGKILLs its own worker process at once. */
  killOn?: number[];
  /** Seed nodes of a Redis Cluster to connect to instead of `redisUrl`. */
  clusterNodes?: Array<{ host: string; port: number }>;
  /** First URL (workers other than worker.mjs, e.g. test/shard/site-worker.mjs). */
  startUrl?: string;
  /** Extra options for openRedisRequestQueue. */
  queueOptions?: Record<string, unknown>;
  /** Set by the fleet: the worker waits for this file before crawler.run(). */
  gateFile?: string;
}

export interface WorkerHandle {
  readonly index: number;
  readonly child: ChildProcess;
  readonly resultFile: string;
  readonly outputFile: string;
  /** Resolves with the exit code (or the signal name) once the process is gone. */
  readonly exited: Promise<number | string>;
  log(): WorkerLog;
}

/** A set of worker processes sharing one queue, with a temporary directory for their result files. */
export class Fleet {
  readonly dir = mkdtempSync(join(tmpdir(), 'redis-queue-mp-'));
  readonly workers: WorkerHandle[] = [];
  readonly gateFile = join(this.dir, 'go');

  /** @param config - every worker's settings @param script - the worker script (default: worker.mjs beside this file) */
  constructor(
    readonly config: WorkerConfig,
    private readonly script: string = WORKER_SCRIPT,
  ) {}

  /** Starts `count` more workers (they start in parallel; Crawlee's import alone takes about a second). */
  start(count: number): WorkerHandle[] {
    const started: WorkerHandle[] = [];
    for (let n = 0; n < count; n++) started.push(this.spawnOne(this.workers.length));
    return started;
  }

  private spawnOne(index: number): WorkerHandle {
    const resultFile = join(this.dir, `worker-${index}.events`);
    const outputFile = join(this.dir, `worker-${index}.out`);
    const out = openSync(outputFile, 'a');
    const child = spawn(process.execPath, [this.script, JSON.stringify({ gateFile: this.gateFile, ...this.config, resultFile })], {
      stdio: ['ignore', out, out],
      env: {
        ...process.env,
        CRAWLEE_STORAGE_DIR: join(this.dir, `storage-${index}`),
        CRAWLEE_PERSIST_STORAGE: 'false',
        CRAWLEE_LOG_LEVEL: process.env.CRAWLEE_LOG_LEVEL ?? 'INFO',
      },
    });
    closeSync(out);
    const exited = new Promise<number | string>((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
    const handle: WorkerHandle = {
      index,
      child,
      resultFile,
      outputFile,
      exited,
      log: () => parseWorkerLog(existsSync(resultFile) ? readFileSync(resultFile, 'utf8') : ''),
    };
    this.workers.push(handle);
    return handle;
  }

  /** Starts `count` workers, waits until all of them opened the queue, then lets them crawl at the same moment. */
  async startTogether(count: number, timeoutMs = 60_000): Promise<WorkerHandle[]> {
    const started = this.start(count);
    await waitUntil(
      () => {
        const dead = started.find((w) => w.child.exitCode !== null);
        if (dead) throw new Error(`worker ${dead.index} exited before it was ready\n${this.describe()}`);
        return started.every((w) => w.log().readyAt !== undefined);
      },
      timeoutMs,
      'workers to open the queue',
      50,
    );
    writeFileSync(this.gateFile, 'go');
    return started;
  }

  logs(): WorkerLog[] {
    return this.workers.map((w) => w.log());
  }

  /** Waits for every worker to exit; SIGKILLs the rest and throws after `timeoutMs`. */
  async waitAll(timeoutMs: number): Promise<(number | string)[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`workers still running after ${timeoutMs} ms\n${this.describe()}`)), timeoutMs);
    });
    try {
      return await Promise.race([Promise.all(this.workers.map((w) => w.exited)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kills every worker still running (test cleanup) and removes the directory unless `keep` is set. */
  async destroy(keep = false): Promise<void> {
    for (const w of this.workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(this.workers.map((w) => w.exited));
    if (!keep) rmSync(this.dir, { recursive: true, force: true });
  }

  /** Tail of each worker's output, for failure messages. */
  describe(): string {
    return this.workers
      .map((w) => {
        const text = existsSync(w.outputFile) ? readFileSync(w.outputFile, 'utf8') : '';
        return `--- worker ${w.index} (pid ${w.child.pid}) output tail:\n${text.split('\n').slice(-15).join('\n')}`;
      })
      .join('\n');
  }
}

/** Polls `predicate` every `intervalMs` until it returns true; throws after `timeoutMs`. */
export async function waitUntil(predicate: () => boolean, timeoutMs: number, what: string, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

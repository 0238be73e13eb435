import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { sleep } from '@crawlee-distributed/test-utils';
import { CLI } from './run-cli.js';

/** A CLI run in the background, with its output so far. */
export interface BackgroundCli {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** PIDs of the workers it reported starting. */
  workerPids: () => number[];
}

/** Starts `node dist/cli.js ...args` without waiting for it. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): BackgroundCli {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    workerPids: () => [...text.matchAll(/started \S*worker-\d+ \(pid (\d+)\)/g)].map((m) => Number(m[1])),
  };
}

/** Waits until the fleet's page counter of the queue reaches `pages`. */
export async function waitForPages(redisUrl: string, queueName: string, pages: number, timeoutMs = 120_000): Promise<number> {
  const redis = new Redis(redisUrl);
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const n = Number((await redis.hget(`{crawlee:rq:${queueName}}:example-counters`, 'pages')) ?? 0);
      if (n >= pages) return n;
      await sleep(50);
    }
    throw new Error(`queue ${queueName} did not reach ${pages} pages within ${timeoutMs} ms`);
  } finally {
    redis.disconnect();
  }
}

/** Reads the run's counters hash of a queue. */
export async function countersOf(redisUrl: string, queueName: string): Promise<Record<string, string>> {
  const redis = new Redis(redisUrl);
  try {
    return await redis.hgetall(`{crawlee:rq:${queueName}}:example-counters`);
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key of a queue (its hash tag) and its index entry. */
export async function dropQueueKeys(redisUrl: string, queueName: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `*{crawlee:rq:${queueName}}*`, count: 1000 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await redis.del(...keys);
    await redis.srem('crawlee:rq:index', queueName);
  } finally {
    redis.disconnect();
  }
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

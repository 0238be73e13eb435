import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { probeRedis } from './probe-redis.js';

/** A `redis-server` this run started, stopped with the run. */
export interface LaunchedRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Path of the redis-server binary: `REDIS_SERVER_BIN` or `redis-server` from PATH. */
export function redisServerBin(): string {
  return process.env.REDIS_SERVER_BIN ?? 'redis-server';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `redis-server` in the foreground as a child of this process, on 127.0.0.1 and a free port, without
 * persistence (the run's data is thrown away with it).
 *
 * @returns the server, or `undefined` when no `redis-server` binary is installed
 * @throws Error when the binary exists but the server does not answer within 10 s
 */
export async function launchRedisServer(): Promise<LaunchedRedis | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      redisServerBin(),
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const spawnError = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      child.once('error', (error) => resolve(error));
      child.once('spawn', () => resolve(undefined));
    });
    if (spawnError?.code === 'ENOENT') return undefined;
    if (spawnError !== undefined) throw spawnError;
    const url = `redis://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && child.exitCode === null) {
      if ((await probeRedis(url, 500)).kind === 'ok') {
        return {
          url,
          pid: child.pid as number,
          stop: async () => {
            child.kill('SIGTERM');
            await exited(child);
          },
        };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Port taken between the probe and the bind, or a slow start: stop it and try another port.
    child.kill('SIGKILL');
    await exited(child);
  }
  throw new Error(`${redisServerBin()} did not answer PING on a free loopback port after 3 attempts`);
}

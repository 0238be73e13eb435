import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { RedisUnavailableError } from './errors.js';
import { freePort } from './free-port.js';
import { isAlive, run, sleep, stopPid } from './process-tools.js';
import { securityArgs, type ServerSecurity } from './server-security.js';
import type { TlsMaterial } from './tls-certificates.js';

/** Options for {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** TCP port on 127.0.0.1. @defaultValue a free port the kernel picks */
  port?: number;
  /** Turn on the append-only file so data survives a restart. @defaultValue false */
  appendOnly?: boolean;
  /** Data directory (AOF, cluster config, pid and log files). @defaultValue a new temporary directory */
  dir?: string;
  /** Extra `redis-server` arguments, e.g. `['--cluster-enabled', 'yes']`. */
  args?: string[];
  /** Seconds to wait for PONG. @defaultValue 10 */
  readyTimeoutSecs?: number;
  /** Password of the `default` user (`--requirepass`, or the `default` line of the ACL file with `aclUsers`). */
  password?: string;
  /** ACL file lines for more users, e.g. `'user worker on >pw ~{crawlee:rq:* +@all -@dangerous'` (written to
   * `<dir>/users.acl`, loaded with `--aclfile`). The `default` user keeps every permission (and `password`). */
  aclUsers?: string[];
  /** Serve TLS only (`--tls-port`, `--port 0`) with a CA and server certificate made by `openssl` in `<dir>/tls`.
   * Clients connect to `rediss://127.0.0.1:<port>` with `tls: { ca: handle.tls.ca }`. @defaultValue false */
  tls?: boolean;
}

/** A running `redis-server` process that this code started and stops by PID. */
export interface RedisServerHandle {
  host: '127.0.0.1';
  port: number;
  /** `redis://127.0.0.1:<port>` (`rediss://` with `tls`), without credentials. */
  url: string;
  /** The CA and certificate files when started with `tls` (trust `tls.ca`). */
  tls?: TlsMaterial;
  /** ioredis options of an admin client: the default user's password, the CA with `tls`. */
  adminOptions: RedisOptions;
  /** PID of the daemonized `redis-server` (read from its pidfile). */
  pid: number;
  /** Data directory; kept by `stop()` so a restart with the same dir finds its AOF. */
  dir: string;
  /** Stops the process by PID (SIGTERM, then SIGKILL after 10 s). */
  stop(): Promise<void>;
  /** SIGKILL: the crash case, no shutdown save. */
  kill(): Promise<void>;
  /** Starts the same server again on the same port and dir (with the same options); updates `pid`. */
  restart(): Promise<void>;
  /** Stops the server and deletes the data directory if this handle created it. */
  destroy(): Promise<void>;
}

/** Path of the redis-server binary: `REDIS_SERVER_BIN` or `redis-server` from PATH. */
export function redisServerBin(): string {
  return process.env.REDIS_SERVER_BIN ?? 'redis-server';
}

/** Path of the redis-cli binary: `REDIS_CLI_BIN` or `redis-cli` from PATH. */
export function redisCliBin(): string {
  return process.env.REDIS_CLI_BIN ?? 'redis-cli';
}

/** Resolves once `PING` answers on the port, or rejects after `timeoutMs`.
 * @param connect - extra ioredis options (password, tls) */
export async function waitForPong(port: number, timeoutMs = 10_000, connect: RedisOptions = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, ...connect });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') {
        client.disconnect();
        return;
      }
    } catch (error) {
      lastError = error;
    }
    client.disconnect();
    await sleep(50);
  }
  throw new RedisUnavailableError(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`, {
    cause: lastError,
  });
}

async function launch(port: number, dir: string, options: StartRedisServerOptions, security: ServerSecurity): Promise<number> {
  const pidfile = join(dir, 'redis.pid');
  rmSync(pidfile, { force: true });
  const args = [
    ...(security.tls ? [] : ['--port', String(port)]),
    '--bind', '127.0.0.1',
    '--protected-mode', 'yes',
    '--save', '',
    '--appendonly', options.appendOnly ? 'yes' : 'no',
    '--appendfsync', 'always',
    '--dir', dir,
    '--daemonize', 'yes',
    '--pidfile', pidfile,
    '--logfile', join(dir, 'redis.log'),
    ...security.args(port),
    ...(options.args ?? []),
  ];
  let result;
  try {
    result = await run(redisServerBin(), args);
  } catch (error) {
    throw new RedisUnavailableError(`could not run ${redisServerBin()} (${(error as Error).message})`, { cause: error });
  }
  if (result.code !== 0) {
    throw new RedisUnavailableError(`${redisServerBin()} exited with ${result.code}: ${result.stderr || result.stdout}`);
  }
  await waitForPong(port, (options.readyTimeoutSecs ?? 10) * 1000, security.adminOptions);
  const pid = Number(readFileSync(pidfile, 'utf8').trim());
  if (!Number.isInteger(pid) || !isAlive(pid)) throw new RedisUnavailableError(`redis-server on port ${port} wrote no live pid`);
  // With --daemonize the parent exits 0 even when the child cannot bind; make sure the server that answered is ours.
  const probe = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, ...security.adminOptions });
  try {
    const info = await probe.info('server');
    const answered = /process_id:(\d+)/.exec(info)?.[1];
    if (Number(answered) !== pid) {
      throw new RedisUnavailableError(`port ${port} is answered by another redis-server (pid ${answered}, ours ${pid})`);
    }
  } finally {
    probe.disconnect();
  }
  return pid;
}

/**
 * Starts a daemonized `redis-server` on 127.0.0.1 and returns a handle that stops it by PID.
 *
 * @throws {@link RedisUnavailableError} when the binary is missing or the server does not answer.
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServerHandle> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'crawlee-distributed-redis-'));
  mkdirSync(dir, { recursive: true });
  const security = await securityArgs(dir, options);
  let port = options.port ?? (await freePort());
  let pid: number | undefined;
  for (let attempt = 0; pid === undefined; attempt++) {
    try {
      pid = await launch(port, dir, options, security);
    } catch (error) {
      // A free port can be taken between the probe and the bind; try another unless the caller fixed the port.
      if (options.port !== undefined || attempt >= 3) throw error;
      port = await freePort();
    }
  }
  const handle: RedisServerHandle = {
    host: '127.0.0.1',
    port,
    url: `${security.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    ...(security.tls ? { tls: security.tls } : {}),
    adminOptions: security.adminOptions,
    pid,
    dir,
    stop: () => stopPid(handle.pid, 'SIGTERM'),
    kill: () => stopPid(handle.pid, 'SIGKILL'),
    restart: async () => {
      await stopPid(handle.pid, 'SIGTERM');
      handle.pid = await launch(port, dir, options, security);
    },
    destroy: async () => {
      await stopPid(handle.pid, 'SIGTERM');
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

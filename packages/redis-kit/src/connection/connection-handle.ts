import { log } from 'crawlee';
import { Redis, type RedisOptions } from 'ioredis';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';
import { maskRedisUrl } from '../url/mask-redis-url.js';
import { DEFAULT_CONNECT_TIMEOUT_SECS, OWNED_CONNECTION_OPTIONS } from './connection-policy.js';
import type { RedisConnection, RedisTarget } from './redis-connection.js';

/** Options of {@link ConnectionHandle}. */
export interface ConnectionHandleOptions {
  /** Package name that prefixes log lines, e.g. `'crawlee-redis-queue'`. */
  packageName: string;
  /** Seconds the first connect of a connection created from a URL may take (validated by the caller). @defaultValue 10 */
  connectTimeoutSecs?: number;
  /** Extra ioredis options for a connection created from a URL (they win over the policy). */
  redisOptions?: RedisOptions;
  /** Let the process exit while no operation runs through {@link ConnectionHandle.run} (the socket is unref'd while
   * idle). Only for callers that send every command through `run`. @defaultValue false */
  unrefWhenIdle?: boolean;
}

/**
 * One Redis connection and whether the package owns it. An owned connection (created from a URL) follows
 * `OWNED_CONNECTION_OPTIONS` (waits through restarts, auto-pipelining), and its FIRST connect must succeed within
 * `connectTimeoutSecs`: until then it retries (Redis may still be starting), after that it fails with
 * {@link RedisUnreachableError} and is disconnected. Connection errors after the first connect are logged at most
 * every 10 s. A caller's connection is never closed and its options are left alone.
 */
export class ConnectionHandle {
  /** The connection every command of this handle uses. */
  readonly redis: RedisConnection;
  /** True when the package created the connection (from a URL). */
  readonly owned: boolean;
  /** The URL with credentials masked ('' for a caller's connection). */
  readonly url: string = '';
  private readonly connectTimeoutSecs: number;
  private readonly unrefWhenIdle: boolean;
  private inFlight = 0;
  private connectedOnce = false;
  private firstConnect: Promise<void> | undefined;
  private lastError: Error | undefined;
  /** The first connect timed out and the connection was disconnected; nothing is left to close. */
  private unreachable = false;

  /**
   * @param target - a URL to connect to, or the caller's connection
   * @param options - package name, first-connect timeout, extra ioredis options
   */
  constructor(target: RedisTarget, options: ConnectionHandleOptions) {
    this.connectTimeoutSecs = options.connectTimeoutSecs ?? DEFAULT_CONNECT_TIMEOUT_SECS;
    this.unrefWhenIdle = options.unrefWhenIdle ?? false;
    if ('connection' in target) {
      this.redis = target.connection;
      this.owned = false;
      return;
    }
    const redis = new Redis(target.url, { ...OWNED_CONNECTION_OPTIONS, ...options.redisOptions });
    this.redis = redis;
    this.owned = true;
    this.url = maskRedisUrl(target.url);
    let lastWarning = 0;
    // Always listening, so ioredis never prints "Unhandled error event".
    redis.on('error', (error: Error) => {
      this.lastError = error;
      // Before the first connect the timeout reports the failure (RedisUnreachableError); no retry warnings.
      if (!this.connectedOnce) return;
      if (Date.now() - lastWarning > 10_000) {
        lastWarning = Date.now();
        log.warning(`${options.packageName}: Redis connection to ${this.url} failed, reconnecting: ${error.message}`);
      }
    });
    redis.on('connect', () => this.syncRef());
    redis.on('ready', () => {
      this.connectedOnce = true;
      this.syncRef();
    });
  }

  /**
   * Runs one Redis operation after the first connect; with `unrefWhenIdle`, the connection keeps the process alive
   * only while operations are in flight.
   *
   * @param operation - the operation
   * @returns its result
   * @throws {@link RedisUnreachableError} when the first connect does not succeed in time
   */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    this.inFlight++;
    if (this.inFlight === 1) this.syncRef();
    try {
      if (this.owned && !this.connectedOnce) await this.waitForFirstConnect();
      return await operation();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.syncRef();
    }
  }

  /**
   * Waits until an owned connection is ready for the first time; shared by every caller until then.
   *
   * @throws {@link RedisUnreachableError} when it is not ready within `connectTimeoutSecs` (the connection is then
   *   disconnected, so it stops retrying and no longer keeps the process alive)
   */
  waitForFirstConnect(): Promise<void> {
    if (!this.owned || this.connectedOnce) return Promise.resolve();
    this.firstConnect ??= new Promise<void>((resolve, reject) => {
      const redis = this.redis as Redis;
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        this.unreachable = true;
        // disconnect() cancels ioredis' pending reconnect; the 'error' listener stays, so no unhandled error event.
        redis.disconnect();
        reject(new RedisUnreachableError(this.url, this.connectTimeoutSecs, { cause: this.lastError }));
      }, this.connectTimeoutSecs * 1000);
      redis.once('ready', onReady);
      if (redis.status === 'ready') onReady();
      // lazyConnect: nothing connects until asked; errors arrive through the 'error' listener and the timer.
      else if (redis.status === 'wait') redis.connect().catch(() => undefined);
    });
    return this.firstConnect;
  }

  /** Closes the connection when the package owns it; a caller's connection is left open. Idempotent. */
  async close(): Promise<void> {
    if (!this.owned || this.unreachable) return;
    const redis = this.redis as Redis;
    if (redis.status === 'end') return;
    // Counted as in flight: a QUIT waiting on an unref'd socket lets Node exit in the middle of `await close()`.
    this.inFlight++;
    this.syncRef();
    try {
      // Operations started in this turn reach the connection first (batched scripts go out on setImmediate, and
      // auto-pipelined commands on process.nextTick); Redis answers them before the QUIT.
      await new Promise((resolve) => setImmediate(resolve));
      await redis.quit();
    } catch {
      redis.disconnect();
    } finally {
      this.inFlight--;
    }
  }

  private syncRef(): void {
    if (!this.owned || !this.unrefWhenIdle) return;
    const stream = (this.redis as unknown as { stream?: { ref?: () => void; unref?: () => void } }).stream;
    if (this.inFlight > 0) stream?.ref?.();
    else stream?.unref?.();
  }
}

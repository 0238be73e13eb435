import { log } from 'crawlee';
import { Redis } from 'ioredis';
import type { Cluster, RedisOptions } from 'ioredis';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';

/** An ioredis connection: a standalone `Redis` or a `Cluster` (ioredis 5 or 6). */
export type RedisConnection = Redis | Cluster;

/** What the `redis` option accepts: a URL, or a connection the caller owns (never closed by this package). */
export type RedisConnectionOption = string | RedisConnection;

/** True for an ioredis `Cluster` (works across ioredis copies and versions, unlike `instanceof`).
 * @param redis - a connection */
export function isCluster(redis: unknown): redis is Cluster {
  return typeof redis === 'object' && redis !== null && (redis as { isCluster?: boolean }).isCluster === true;
}

function looksLikeIoredis(value: unknown): value is RedisConnection {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { defineCommand?: unknown }).defineCommand === 'function' &&
    typeof (value as { call?: unknown }).call === 'function'
  );
}

/** Seconds the first connect of a connection created from a URL may take. */
export const DEFAULT_CONNECT_TIMEOUT_SECS = 10;

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * One Redis connection and whether this package owns it. An owned connection (created from a URL) is closed by
 * {@link ConnectionHandle.close}, waits through Redis restarts (`maxRetriesPerRequest: null`), pipelines the
 * commands of one event-loop turn (`enableAutoPipelining: true`), and does not keep the
 * Node.js process alive while no command is in flight, so a worker exits when its crawl is done.
 * Its FIRST connect must succeed within `connectTimeoutSecs`: a wrong URL fails fast with
 * {@link RedisUnreachableError} instead of retrying for ever; only after that does it wait through restarts.
 * A connection the caller passed in is never closed, and its options are left alone.
 */
export class ConnectionHandle {
  /** The connection every command of this handle uses. */
  readonly redis: RedisConnection;
  /** True when this package created the connection (from a URL). */
  readonly owned: boolean;
  private inFlight = 0;
  /** Set once an owned connection has been ready; until then operations wait for the first connect. */
  private connectedOnce = false;
  private firstConnect: Promise<void> | undefined;
  private readonly url: string = '';
  private readonly connectTimeoutSecs: number = DEFAULT_CONNECT_TIMEOUT_SECS;
  private lastError: Error | undefined;
  /** The first connect timed out and the connection was disconnected; nothing is left to close. */
  private unreachable = false;

  /**
   * @param option - a URL, or an ioredis `Redis`/`Cluster`; defaults to `REDIS_URL`, else `redis://127.0.0.1:6379`
   * @param redisOptions - extra ioredis options for a connection created from a URL
   * @param connectTimeoutSecs - seconds the first connect of a connection created from a URL may take
   * @throws {@link InvalidOptionsError} when `option` is neither a URL nor an ioredis connection, or the timeout is
   *   not a positive number
   */
  constructor(option: RedisConnectionOption | undefined, redisOptions: RedisOptions = {}, connectTimeoutSecs?: number) {
    if (connectTimeoutSecs !== undefined && !(typeof connectTimeoutSecs === 'number' && connectTimeoutSecs > 0 && Number.isFinite(connectTimeoutSecs))) {
      throw new InvalidOptionsError(`connectTimeoutSecs must be a positive number of seconds (got ${String(connectTimeoutSecs)})`);
    }
    if (option === undefined || typeof option === 'string') {
      const url = option ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
      if (!/^rediss?:\/\//.test(url)) {
        throw new InvalidOptionsError(`redis must be a redis:// or rediss:// URL or an ioredis connection (got ${JSON.stringify(url)})`);
      }
      // Auto-pipelining: the commands of one event-loop turn (many crawler tasks) go out in one write, and Redis
      // answers them with one; per request that saves a system call on each side.
      const redis = new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true, ...redisOptions });
      this.redis = redis;
      this.owned = true;
      this.url = redactUrl(url);
      this.connectTimeoutSecs = connectTimeoutSecs ?? DEFAULT_CONNECT_TIMEOUT_SECS;
      let lastWarning = 0;
      redis.on('error', (error: Error) => {
        this.lastError = error;
        // Before the first connect the timeout reports the failure (RedisUnreachableError); no retry warnings.
        if (!this.connectedOnce) return;
        // ioredis reconnects by itself; say so at most every 10 s instead of once per retry.
        if (Date.now() - lastWarning > 10_000) {
          lastWarning = Date.now();
          log.warning(`crawlee-redis-queue: Redis connection error, reconnecting: ${error.message}`);
        }
      });
      redis.on('connect', () => this.syncRef());
      redis.on('ready', () => {
        this.connectedOnce = true;
        this.syncRef();
      });
    } else if (looksLikeIoredis(option)) {
      this.redis = option;
      this.owned = false;
    } else {
      throw new InvalidOptionsError('redis must be a redis:// URL, an ioredis Redis or an ioredis Cluster');
    }
  }

  /**
   * Runs one Redis operation; an owned connection keeps the process alive only while operations are in flight.
   *
   * @param operation - the operation
   * @returns its result
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
   * Waits until an owned connection is ready for the first time; shared by every operation started before that.
   *
   * @throws {@link RedisUnreachableError} when it is not ready within `connectTimeoutSecs` (the connection is then
   *   closed, so it stops retrying and no longer keeps the process alive)
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
        // disconnect() cancels ioredis' pending reconnect, so nothing retries or holds the process any more; the
        // 'error' listener stays, so no unhandled error event.
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

  /** Closes the connection when this package owns it; a caller's connection is left open. */
  async close(): Promise<void> {
    if (!this.owned || this.unreachable) return;
    const redis = this.redis as Redis;
    if (redis.status === 'end') return;
    // Counted as an operation in flight: an idle connection's socket is unref'd, and a QUIT waiting on an unref'd
    // socket lets Node exit in the middle of `await close()`, skipping whatever the caller does next.
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
    if (!this.owned) return;
    const stream = (this.redis as unknown as { stream?: { ref?: () => void; unref?: () => void } }).stream;
    if (this.inFlight > 0) stream?.ref?.();
    else stream?.unref?.();
  }
}

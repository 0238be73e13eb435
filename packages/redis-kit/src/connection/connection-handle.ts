import { log } from 'crawlee';
import { Redis, type RedisOptions } from 'ioredis';
import type { CrawleeRedisError } from '../errors/crawlee-redis-error.js';
import { redactedCause } from '../errors/redacted-cause.js';
import { RedisAuthError } from '../errors/redis-auth-error.js';
import { RedisTlsError } from '../errors/redis-tls-error.js';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';
import { maskRedisUrl } from '../url/mask-redis-url.js';
import { classifyConnectError, permissionErrorOf } from './classify-redis-error.js';
import { tcpAnswers } from './tcp-probe.js';
import { retryThroughFailover } from './failover-retry.js';
import { DEFAULT_CONNECT_TIMEOUT_SECS, DEFAULT_RECONNECT_TIMEOUT_SECS, OWNED_CONNECTION_OPTIONS } from './connection-policy.js';
import { describeConnection } from './describe-connection.js';
import { isCluster, type RedisConnection, type RedisTarget } from './redis-connection.js';

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
  /** Seconds an operation run through {@link ConnectionHandle.run} is retried while Redis answers with failover
   * errors (see `retryThroughFailover`); only for callers whose operations may run twice. Validated by the caller.
   * @defaultValue 0 (no retry) */
  failoverTimeoutSecs?: number;
  /** Seconds a connection that was ready may stay lost before the operations waiting on it (through
   * {@link ConnectionHandle.run}) reject with `RedisUnreachableError` (`afterConnect: true`). An owned connection is
   * then closed (no more reconnects, nothing keeps the process alive) and every later operation rejects at once; a
   * caller's connection is left to its own retry policy and operations run again once it is ready. Validated by the
   * caller. @defaultValue 60 ({@link DEFAULT_RECONNECT_TIMEOUT_SECS}) */
  reconnectTimeoutSecs?: number;
  /** What the package needs from an ACL (key patterns, commands), appended to every `RedisPermissionError` an
   * operation through {@link ConnectionHandle.run} throws. */
  permissionAdvice?: string;
}

/**
 * One Redis connection and whether the package owns it. An owned connection (created from a URL) follows
 * `OWNED_CONNECTION_OPTIONS` (waits through restarts, auto-pipelining), and its FIRST connect must succeed within
 * `connectTimeoutSecs`: until then it retries a refused or silent server (Redis may still be starting), after that
 * it fails with {@link RedisUnreachableError} and is disconnected. An answer from Redis ends the first connect at
 * once with a typed error (`RedisAuthError`, `RedisPermissionError`, `RedisDatabaseError`, `RedisTlsError`): a
 * wrong password or database never becomes right by waiting, and is never replaced by a fallback. A `NOPERM` of any
 * later command run through {@link ConnectionHandle.run} becomes `RedisPermissionError`. Connection errors after the first connect are logged at most
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
  /** A final answer seen before the first ready (auth, permission, database, TLS): the first connect fails with it. */
  private fatal: CrawleeRedisError | undefined;
  private failFirstConnect: ((error: CrawleeRedisError) => void) | undefined;
  private resets = 0;
  private readonly rawUrl: string = '';
  private readonly packageName: string;
  private readonly failoverTimeoutMs: number;
  private failovers = 0;
  private readonly reconnectTimeoutSecs: number;
  private readonly permissionAdvice: string | undefined;
  /** Runs while a connection that was ready is lost; when it fires, the reconnect budget is spent. */
  private lossTimer: NodeJS.Timeout | undefined;
  /** The budget ran out: every operation rejects with this (an owned connection until the end, a caller's until it
   * is ready again). */
  private lost: RedisUnreachableError | undefined;
  /** Rejecters of the operations in flight, told when the budget runs out. */
  private readonly lossWaiters = new Set<(error: RedisUnreachableError) => void>();
  /** One warning per connection loss, not one per reconnect attempt. */
  private warnedThisLoss = false;
  /** close() was called: the connection's end is on purpose, not a loss. */
  private closing = false;

  /**
   * @param target - a URL to connect to, or the caller's connection
   * @param options - package name, first-connect timeout, extra ioredis options
   */
  constructor(target: RedisTarget, options: ConnectionHandleOptions) {
    this.connectTimeoutSecs = options.connectTimeoutSecs ?? DEFAULT_CONNECT_TIMEOUT_SECS;
    this.unrefWhenIdle = options.unrefWhenIdle ?? false;
    this.packageName = options.packageName;
    this.failoverTimeoutMs = (options.failoverTimeoutSecs ?? 0) * 1000;
    this.reconnectTimeoutSecs = options.reconnectTimeoutSecs ?? DEFAULT_RECONNECT_TIMEOUT_SECS;
    this.permissionAdvice = options.permissionAdvice;
    if ('connection' in target) {
      this.redis = target.connection;
      this.owned = false;
      this.watchLosses(target.connection);
      // Without any listener ioredis prints "Unhandled error event" on every reconnect attempt; with the caller's
      // own listener, theirs decides what is printed.
      if (target.connection.listenerCount('error') === 0) {
        target.connection.on('error', (error: Error) => {
          this.lastError = error;
          this.warnOnce(error);
        });
      }
      return;
    }
    const redis = new Redis(target.url, { ...OWNED_CONNECTION_OPTIONS, ...options.redisOptions });
    this.redis = redis;
    this.owned = true;
    this.url = maskRedisUrl(target.url);
    this.rawUrl = target.url;
    this.watchLosses(redis);
    // Always listening, so ioredis never prints "Unhandled error event".
    redis.on('error', (error: Error & { code?: string }) => {
      this.lastError = error;
      if (!this.connectedOnce) {
        // An answer (NOAUTH, WRONGPASS, NOPERM, a bad DB index) or a TLS failure ends the first connect now; a
        // refused or silent server is retried until the timeout (RedisUnreachableError).
        if (error.code === 'ECONNRESET' && !this.rawUrl.startsWith('rediss:') && ++this.resets >= 2) {
          this.fail(new RedisTlsError(this.url, 'the server reset the connection during the handshake; if it serves TLS, use rediss://', { cause: redactedCause(error) }));
        } else {
          const fatal = classifyConnectError(error, this.rawUrl);
          if (fatal) this.fail(fatal);
        }
        return;
      }
      this.warnOnce(error);
    });
    redis.on('connect', () => this.syncRef());
    redis.on('ready', () => {
      // ioredis reports a refused SELECT and still becomes ready on database 0: never let that through.
      if (this.fatal) return;
      this.connectedOnce = true;
      this.syncRef();
    });
  }

  /** Starts the reconnect budget when a ready connection closes, and stops it when the connection is ready again. */
  private watchLosses(redis: RedisConnection): void {
    redis.on('close', () => {
      if (!this.connectedOnce && this.owned) return;
      if (this.closing || this.lossTimer || this.lost) return;
      this.lossTimer = setTimeout(() => this.giveUp(), this.reconnectTimeoutSecs * 1000);
      // The operations in flight keep the process alive; an idle one may exit while Redis is away.
      this.lossTimer.unref();
    });
    redis.on('ready', () => {
      if (!this.owned) this.connectedOnce = true;
      clearTimeout(this.lossTimer);
      this.lossTimer = undefined;
      this.warnedThisLoss = false;
      // A caller's connection that came back serves operations again (an owned one was closed when it gave up).
      if (!this.owned) this.lost = undefined;
    });
  }

  /** The reconnect budget ran out: reject what waits, and close an owned connection so it stops reconnecting. */
  private giveUp(): void {
    this.lossTimer = undefined;
    const target = this.owned ? this.url : describeConnection(this.redis);
    this.lost = new RedisUnreachableError(target, this.reconnectTimeoutSecs, { cause: redactedCause(this.lastError), afterConnect: true });
    for (const reject of this.lossWaiters) reject(this.lost);
    this.lossWaiters.clear();
    if (this.owned) {
      this.unreachable = true;
      // Commands still queued in ioredis reject with "Connection is closed."; their callers already have `lost`.
      (this.redis as Redis).disconnect();
    }
  }

  /** One warning per connection loss (ioredis reports every reconnect attempt). */
  private warnOnce(error: Error): void {
    if (this.warnedThisLoss || this.closing) return;
    this.warnedThisLoss = true;
    const target = this.owned ? this.url : describeConnection(this.redis);
    log.warning(
      `${this.packageName}: lost the connection to Redis at ${target} (${error.message}); reconnecting, for up to ` +
        `reconnectTimeoutSecs = ${this.reconnectTimeoutSecs} s before operations fail`,
    );
  }

  /** The operation, rejected with the loss error as soon as the reconnect budget runs out. */
  private untilLost<T>(operation: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.lossWaiters.add(reject);
      operation.then(resolve, reject).finally(() => this.lossWaiters.delete(reject));
    });
  }

  /** Ends the first connect with a final error: disconnects (no retry) and rejects every waiting caller. */
  private fail(error: CrawleeRedisError): void {
    if (this.fatal || this.connectedOnce) return;
    this.fatal = error;
    this.unreachable = true;
    (this.redis as Redis).disconnect();
    this.failFirstConnect?.(error);
  }

  /**
   * Runs one Redis operation after the first connect; with `unrefWhenIdle`, the connection keeps the process alive
   * only while operations are in flight.
   *
   * @param operation - the operation
   * @returns its result
   * @throws {@link RedisUnreachableError} when the first connect does not succeed in time, or the first connect's
   *   final error (see {@link ConnectionHandle.waitForFirstConnect})
   * @throws {@link RedisPermissionError} when the user's ACL refuses the command or its keys (`NOPERM`)
   * @throws {@link RedisUnreachableError} (`afterConnect: true`) when the connection was lost and did not come back
   *   within `reconnectTimeoutSecs`
   */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    this.inFlight++;
    if (this.inFlight === 1) this.syncRef();
    try {
      if (this.lost) throw this.lost;
      if (this.owned && !this.connectedOnce) await this.waitForFirstConnect();
      if (this.failoverTimeoutMs <= 0) return await this.untilLost(operation());
      return await this.untilLost(retryThroughFailover(operation, {
        timeoutMs: this.failoverTimeoutMs,
        context: this.packageName,
        // A connection closed on purpose (quit, disconnect) stays closed: its "Connection is closed" is final.
        retryable: () => this.redis.status !== 'end',
        onRetry: () => {
          this.failovers++;
          // A READONLY or MOVED reply means the slot map still names a demoted master; ask the cluster for the new one.
          if (isCluster(this.redis)) (this.redis as unknown as { refreshSlotsCache?: () => void }).refreshSlotsCache?.();
        },
      }));
    } catch (error) {
      // "Connection is closed." of a command flushed when the budget ran out says less than the budget's error.
      if (this.lost && !(error instanceof RedisUnreachableError)) throw this.lost;
      // A caller's connection that never authenticated (no or wrong password): every command answers NOAUTH or
      // WRONGPASS, whatever script or layer sent it; typed as the first connect of an owned connection is.
      const message = error instanceof Error ? error.message : String(error);
      if (/^(NOAUTH|WRONGPASS)\b/.test(message)) throw new RedisAuthError(this.owned ? this.url : describeConnection(this.redis), message, { cause: redactedCause(error) });
      // A command or script the user's ACL refuses: say which, typed, whatever layer ran it.
      throw permissionErrorOf(error, this.packageName, this.permissionAdvice !== undefined ? { advice: this.permissionAdvice } : {}) ?? error;
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.syncRef();
    }
  }

  /** How many failover errors {@link ConnectionHandle.run} has retried so far: a change between a write and a
   * later command means the connection may have been re-established (to another master) in between. */
  get failoverRetries(): number {
    return this.failovers;
  }

  /**
   * Waits until an owned connection is ready for the first time; shared by every caller until then.
   *
   * Redis' answers end it at once, never retried: {@link RedisAuthError} (NOAUTH, WRONGPASS),
   * {@link RedisPermissionError} (NOPERM), {@link RedisDatabaseError} (DB index out of range), {@link RedisTlsError}
   * (untrusted certificate, `rediss://` on a plain port, `redis://` on a TLS port). Only a refused or silent server
   * is retried until `connectTimeoutSecs`.
   *
   * @throws {@link RedisUnreachableError} when it is not ready within `connectTimeoutSecs` (the connection is then
   *   disconnected, so it stops retrying and no longer keeps the process alive), or one of the errors above
   */
  waitForFirstConnect(): Promise<void> {
    if (!this.owned || this.connectedOnce) return Promise.resolve();
    if (this.fatal) return Promise.reject(this.fatal);
    this.firstConnect ??= new Promise<void>((resolve, reject) => {
      const redis = this.redis as Redis;
      const onReady = (): void => {
        if (this.fatal) return;
        clearTimeout(timer);
        this.failFirstConnect = undefined;
        this.connectedOnce = true;
        resolve();
      };
      this.failFirstConnect = (error) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        reject(error);
      };
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        this.failFirstConnect = undefined;
        this.unreachable = true;
        // disconnect() cancels ioredis' pending reconnect; the 'error' listener stays, so no unhandled error event.
        redis.disconnect();
        void this.timeoutError().then(reject);
      }, this.connectTimeoutSecs * 1000);
      redis.once('ready', onReady);
      if (redis.status === 'ready') onReady();
      // lazyConnect: nothing connects until asked; errors arrive through the 'error' listener and the timer.
      else if (redis.status === 'wait') redis.connect().catch(() => undefined);
    });
    return this.firstConnect;
  }

  /** The error of a first connect that timed out: a TLS port that never finished its handshake although TCP
   * answers is a {@link RedisTlsError} (`rediss://` on a plain port), anything else {@link RedisUnreachableError}. */
  private async timeoutError(): Promise<CrawleeRedisError> {
    if (this.fatal) return this.fatal;
    if (this.rawUrl.startsWith('rediss:') && (await tcpAnswers(this.rawUrl))) {
      return new RedisTlsError(this.url, `no TLS handshake within connectTimeoutSecs = ${this.connectTimeoutSecs} s although the port accepts TCP; if the server does not serve TLS there, use redis://`, { cause: redactedCause(this.lastError) });
    }
    return new RedisUnreachableError(this.url, this.connectTimeoutSecs, { cause: redactedCause(this.lastError) });
  }

  /** Closes the connection when the package owns it; a caller's connection is left open. Idempotent. */
  async close(): Promise<void> {
    clearTimeout(this.lossTimer);
    this.lossTimer = undefined;
    if (!this.owned || this.unreachable) return;
    this.closing = true;
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

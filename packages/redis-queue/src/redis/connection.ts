import { log } from 'crawlee';
import { Redis } from 'ioredis';
import type { Cluster, RedisOptions } from 'ioredis';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

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

/**
 * One Redis connection and whether this package owns it. An owned connection (created from a URL) is closed by
 * {@link ConnectionHandle.close}, waits through Redis restarts (`maxRetriesPerRequest: null`), and does not keep the
 * Node.js process alive while no command is in flight, so a worker exits when its crawl is done.
 * A connection the caller passed in is never closed, and its options are left alone.
 */
export class ConnectionHandle {
  /** The connection every command of this handle uses. */
  readonly redis: RedisConnection;
  /** True when this package created the connection (from a URL). */
  readonly owned: boolean;
  private inFlight = 0;

  /**
   * @param option - a URL, or an ioredis `Redis`/`Cluster`; defaults to `REDIS_URL`, else `redis://127.0.0.1:6379`
   * @param redisOptions - extra ioredis options for a connection created from a URL
   * @throws {@link InvalidOptionsError} when `option` is neither a URL nor an ioredis connection
   */
  constructor(option: RedisConnectionOption | undefined, redisOptions: RedisOptions = {}) {
    if (option === undefined || typeof option === 'string') {
      const url = option ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
      if (!/^rediss?:\/\//.test(url)) {
        throw new InvalidOptionsError(`redis must be a redis:// or rediss:// URL or an ioredis connection (got ${JSON.stringify(url)})`);
      }
      const redis = new Redis(url, { maxRetriesPerRequest: null, ...redisOptions });
      this.redis = redis;
      this.owned = true;
      let lastWarning = 0;
      redis.on('error', (error: Error) => {
        // ioredis reconnects by itself; say so at most every 10 s instead of once per retry.
        if (Date.now() - lastWarning > 10_000) {
          lastWarning = Date.now();
          log.warning(`crawlee-redis-queue: Redis connection error, reconnecting: ${error.message}`);
        }
      });
      redis.on('connect', () => this.syncRef());
      redis.on('ready', () => this.syncRef());
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
      return await operation();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.syncRef();
    }
  }

  /** Closes the connection when this package owns it; a caller's connection is left open. */
  async close(): Promise<void> {
    if (!this.owned) return;
    const redis = this.redis as Redis;
    if (redis.status === 'end') return;
    try {
      await redis.quit();
    } catch {
      redis.disconnect();
    }
  }

  private syncRef(): void {
    if (!this.owned) return;
    const stream = (this.redis as unknown as { stream?: { ref?: () => void; unref?: () => void } }).stream;
    if (this.inFlight > 0) stream?.ref?.();
    else stream?.unref?.();
  }
}

import { log } from 'crawlee';
import type { Cluster, Redis } from 'ioredis';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';

/** An ioredis connection: a single node or a Cluster (ioredis 5 or 6). */
export type RedisConnection = Redis | Cluster;

/** Default bound on the first connect of a connection the store opens from a URL, in seconds. */
export const DEFAULT_CONNECT_TIMEOUT_SECS = 10;

/** True for an ioredis Cluster client (both ioredis 5 and 6 set `isCluster`). */
export function isCluster(redis: RedisConnection): redis is Cluster {
  return (redis as { isCluster?: boolean }).isCluster === true;
}

/** The URL with its password (if any) replaced, for messages and logs. */
export function maskRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Connects a client that was created with `lazyConnect`, settling on the first outcome: ready, an error before
 * ready, or the timeout. ioredis' own `connect()` promise is not used as the signal: with its default retry strategy
 * a refused connection keeps reconnecting and, depending on version, the promise may never settle.
 */
async function firstConnect(redis: Redis, url: string, timeoutSecs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  let onError: ((error: Error) => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onError = (error) => reject(new RedisUnreachableError(url, error.message || String(error), { cause: error }));
      redis.once('ready', onReady);
      redis.once('error', onError);
      timer = setTimeout(
        () => reject(new RedisUnreachableError(url, `no connection within connectTimeoutSecs = ${timeoutSecs} s`)),
        timeoutSecs * 1000,
      );
      redis.connect().catch(() => {
        // Reported through the 'error' event or the timeout above.
      });
    });
  } finally {
    clearTimeout(timer);
    if (onReady) redis.removeListener('ready', onReady);
    if (onError) redis.removeListener('error', onError);
  }
}

/** Holds the connection a store uses; opens one from a URL when given a string, and then also closes it. */
export class ConnectionHolder {
  readonly redis: RedisConnection;
  private readonly owned: boolean;

  private constructor(redis: RedisConnection, owned: boolean) {
    this.redis = redis;
    this.owned = owned;
  }

  /**
   * Wraps a given client, or opens one from a URL and waits for its first connection.
   * @param redis - an ioredis client (used as is) or a Redis URL
   * @param connectTimeoutSecs - bound on the first connect from a URL, in seconds
   * @throws {@link RedisUnreachableError} when the URL's first connect fails or times out (the client is closed)
   */
  static async from(
    redis: RedisConnection | string,
    connectTimeoutSecs: number = DEFAULT_CONNECT_TIMEOUT_SECS,
  ): Promise<ConnectionHolder> {
    if (typeof redis !== 'string') return new ConnectionHolder(redis, false);
    const url = maskRedisUrl(redis);
    const { Redis: RedisClass } = await import('ioredis');
    const client = new RedisClass(redis, { lazyConnect: true, connectTimeout: connectTimeoutSecs * 1000 });
    // A listener is always attached so ioredis never prints "Unhandled error event"; after the first connect,
    // ioredis keeps reconnecting on its own and the errors are logged once per outage.
    let connected = false;
    let reported = false;
    client.on('error', (error: Error) => {
      if (!connected || reported) return;
      reported = true;
      log.warning(`crawlee-bloom-dedup: Redis connection to ${url} failed, reconnecting: ${error.message}`);
    });
    client.on('ready', () => {
      reported = false;
    });
    try {
      await firstConnect(client, url, connectTimeoutSecs);
    } catch (error) {
      client.disconnect();
      throw error;
    }
    connected = true;
    return new ConnectionHolder(client, true);
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit();
  }
}

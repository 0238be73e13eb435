import { ConnectionHandle, DEFAULT_CONNECT_TIMEOUT_SECS, type RedisConnection } from '@crawlee-distributed/redis-kit';

export { DEFAULT_CONNECT_TIMEOUT_SECS, isCluster, type RedisConnection } from '@crawlee-distributed/redis-kit';

/**
 * Holds the connection a store uses: the caller's client as it is, or one opened from a URL with the kit's one
 * connection policy (waits through Redis restarts; the first connect bounded by `connectTimeoutSecs`), which the
 * store then also closes.
 */
export class ConnectionHolder {
  private constructor(private readonly handle: ConnectionHandle) {}

  /** The connection every command of the store uses. */
  get redis(): RedisConnection {
    return this.handle.redis;
  }

  /**
   * Wraps a given client, or opens one from a URL and waits for its first connection.
   * @param redis - an ioredis client (used as is) or a Redis URL
   * @param connectTimeoutSecs - bound on the first connect from a URL, in seconds
   * @throws {@link RedisUnreachableError} when the URL's first connect does not succeed in time (the client is
   *   disconnected and stops retrying)
   */
  static async from(redis: RedisConnection | string, connectTimeoutSecs: number = DEFAULT_CONNECT_TIMEOUT_SECS): Promise<ConnectionHolder> {
    const target = typeof redis === 'string' ? { url: redis } : { connection: redis };
    const handle = new ConnectionHandle(target, { packageName: 'crawlee-bloom-dedup', connectTimeoutSecs });
    await handle.waitForFirstConnect();
    return new ConnectionHolder(handle);
  }

  /** Closes the connection when it was opened from a URL; a caller's client stays open. */
  async close(): Promise<void> {
    await this.handle.close();
  }
}

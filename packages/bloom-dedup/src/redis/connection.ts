import type { Cluster, Redis } from 'ioredis';

/** An ioredis connection: a single node or a Cluster (ioredis 5 or 6). */
export type RedisConnection = Redis | Cluster;

/** True for an ioredis Cluster client (both ioredis 5 and 6 set `isCluster`). */
export function isCluster(redis: RedisConnection): redis is Cluster {
  return (redis as { isCluster?: boolean }).isCluster === true;
}

/** Holds the connection a store uses; opens one from a URL when given a string, and then also closes it. */
export class ConnectionHolder {
  readonly redis: RedisConnection;
  private readonly owned: boolean;

  private constructor(redis: RedisConnection, owned: boolean) {
    this.redis = redis;
    this.owned = owned;
  }

  static async from(redis: RedisConnection | string): Promise<ConnectionHolder> {
    if (typeof redis !== 'string') return new ConnectionHolder(redis, false);
    const { Redis: RedisClass } = await import('ioredis');
    return new ConnectionHolder(new RedisClass(redis), true);
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit();
  }
}

import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { redisUrlsOf } from '../options.js';

/** A connection of the run: a standalone Redis, or a Redis Cluster (ioredis routes each key to its slot's master). */
export type RedisClient = Redis | Cluster;

/** Where the run's Redis is: the `--redis` value and whether the server said it is a Cluster node. */
export interface RedisTarget {
  /** One URL, or a Cluster's seed nodes joined by commas (see `redisUrlList` in options.ts). */
  url: string;
  /** True when the server reported `cluster_enabled:1` (see probe-redis.ts). */
  cluster: boolean;
}

/**
 * Opens a connection to the run's Redis. A Cluster is opened with every URL as a seed node; the first URL's user,
 * password and scheme (`rediss://`: TLS) apply to every node, also the ones found through `CLUSTER SLOTS`, because
 * ioredis takes a seed URL's credentials for that seed only.
 *
 * @param target - the URL(s) and the kind
 * @param options - ioredis options of each connection (e.g. `maxRetriesPerRequest`)
 * @returns the connection (connecting in the background, as ioredis does)
 */
export function openRedis(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  const urls = redisUrlsOf(target.url);
  if (!target.cluster) return new Redis(urls[0]!, options);
  const first = new URL(urls[0]!);
  const nodeOptions: RedisOptions = {
    ...options,
    ...(first.username !== '' ? { username: decodeURIComponent(first.username) } : {}),
    ...(first.password !== '' ? { password: decodeURIComponent(first.password) } : {}),
    ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  const seeds = urls.map((url) => {
    const u = new URL(url);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port === '' ? 6379 : Number(u.port) };
  });
  return new Cluster(seeds, { redisOptions: nodeOptions, ...(options.lazyConnect === true ? { lazyConnect: true } : {}) });
}

/** @returns the masters of a Cluster, or the one standalone connection: where a SCAN or INFO must ask */
export function mastersOf(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

import { isCluster, type RedisConnection } from './redis-connection.js';

/**
 * Where a caller's connection points, for messages: `redis://host:port/db`, or the Cluster's startup nodes. Never
 * credentials (ioredis keeps them in separate options, not in host or port).
 *
 * @param redis - an ioredis `Redis` or `Cluster`
 */
export function describeConnection(redis: RedisConnection): string {
  if (isCluster(redis)) {
    const nodes = (redis as unknown as { startupNodes?: Array<{ host?: string; port?: number } | string | number> }).startupNodes ?? [];
    const shown = nodes.map((n) => (typeof n === 'object' ? `${n.host ?? '127.0.0.1'}:${n.port ?? 6379}` : String(n)));
    return `the Cluster at ${shown.join(', ') || 'its startup nodes'}`;
  }
  const { host, port, path, db } = redis.options ?? {};
  if (path) return `unix:${path}`;
  return `redis://${host ?? '127.0.0.1'}:${port ?? 6379}${db ? `/${db}` : ''}`;
}

import { isCluster, type RedisConnectionOption } from '../core/connection.js';
import { maskRedisUrl } from '../core/mask-redis-url.js';

/**
 * What the dashboard header shows for the Redis: the URL or the connection's address, credentials masked
 * (`redis://user:***@host:6379/0`), so a screenshot or a shared screen never leaks a password.
 *
 * @param redis - the dashboard's `redis` option
 * @returns a display string without secrets
 */
export function describeRedis(redis: RedisConnectionOption | undefined): string {
  if (redis === undefined || typeof redis === 'string') {
    const url = redis ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    // The kit's one masking rule (a lone user part is taken for a password, as in `redis://secret@host`).
    return URL.canParse(url) ? maskRedisUrl(url).replace(/\/$/, '') : 'redis (unparsable URL hidden)';
  }
  if (isCluster(redis)) {
    const nodes = (redis as unknown as { startupNodes?: Array<{ host?: string; port?: number } | string> }).startupNodes ?? [];
    const first = nodes[0];
    // A startup node may be a URL with credentials.
    const address = typeof first === 'string' ? maskRedisUrl(first) : `${first?.host ?? '127.0.0.1'}:${first?.port ?? 6379}`;
    return `redis cluster ${address}${nodes.length > 1 ? ` (+${nodes.length - 1} nodes)` : ''}`;
  }
  const options = (redis as unknown as { options?: { host?: string; port?: number; db?: number; password?: string; username?: string; tls?: unknown } }).options ?? {};
  const auth = options.password ? `${options.username ? `${options.username}:` : ''}***@` : '';
  return `${options.tls ? 'rediss' : 'redis'}://${auth}${options.host ?? '127.0.0.1'}:${options.port ?? 6379}/${options.db ?? 0}`;
}

import type { Cluster, Redis } from 'ioredis';
import { maskRedisUrl } from '../url/mask-redis-url.js';

/** An ioredis connection: a standalone `Redis` or a `Cluster` (ioredis 5 or 6). */
export type RedisConnection = Redis | Cluster;

/** What a `redis` option accepts: a `redis://` / `rediss://` URL, or a connection the caller owns. */
export type RedisConnectionOption = string | RedisConnection;

/** Where a connection comes from: a URL (the package creates and closes it) or the caller's connection. */
export type RedisTarget = { url: string } | { connection: RedisConnection };

/** True for an ioredis `Cluster` (works across ioredis copies and versions, unlike `instanceof`).
 * @param redis - a connection */
export function isCluster(redis: unknown): redis is Cluster {
  return typeof redis === 'object' && redis !== null && (redis as { isCluster?: boolean }).isCluster === true;
}

/** True for an object that behaves like an ioredis `Redis` or `Cluster` (duck-typed: ioredis 5 and 6, any copy).
 * @param value - anything */
export function looksLikeIoredis(value: unknown): value is RedisConnection {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { defineCommand?: unknown }).defineCommand === 'function' &&
    typeof (value as { call?: unknown }).call === 'function'
  );
}

/**
 * Checks a `redis` option and says where the connection comes from.
 *
 * @param option - a URL or an ioredis connection
 * @param invalid - builds the package's own bad-input error from the message
 * @returns the target
 * @throws whatever `invalid` returns, for a string that is not a `redis://`/`rediss://` URL (printed with its
 *   credentials masked) or a value that is not an ioredis connection
 */
export function resolveRedisTarget(option: unknown, invalid: (message: string) => Error): RedisTarget {
  if (typeof option === 'string') {
    if (!/^rediss?:\/\//.test(option)) {
      throw invalid(`redis must be a redis:// or rediss:// URL or an ioredis connection (got ${JSON.stringify(maskRedisUrl(option))})`);
    }
    return { url: option };
  }
  if (looksLikeIoredis(option)) return { connection: option };
  throw invalid('redis must be a redis:// URL, an ioredis Redis or an ioredis Cluster');
}

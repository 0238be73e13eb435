import type { RedisOptions } from 'ioredis';

/** Seconds the first connect of a connection created from a URL may take, unless `connectTimeoutSecs` says otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_SECS = 10;

/**
 * Seconds a connection that was ready may stay lost (Redis stopped, restarting, unreachable) before the operations
 * waiting on it fail with `RedisUnreachableError` (`afterConnect: true`), unless `reconnectTimeoutSecs` says
 * otherwise. Long enough for a restart with a small data set or a failover; short enough that a Redis gone for
 * good ends a worker with a clear error instead of a silent hang.
 */
export const DEFAULT_RECONNECT_TIMEOUT_SECS = 60;

/**
 * The ioredis options of every connection the packages create from a URL (one retry policy for all of them):
 *
 * - `maxRetriesPerRequest: null`: after the first connect, a command waits through a Redis restart or failover
 *   instead of failing after 20 reconnects (ioredis' default). A failed Bloom or queue command in the middle of a
 *   crawl loses work; a delayed one does not, and `listAndLockHead` keeps every invariant when it resumes. The wait
 *   is bounded in time, not in reconnects: `ConnectionHandle` gives up after `reconnectTimeoutSecs` (default
 *   {@link DEFAULT_RECONNECT_TIMEOUT_SECS}) without a ready connection, rejects what waits with
 *   `RedisUnreachableError` and closes the connection.
 * - `enableAutoPipelining: true`: the commands of one event-loop turn (many crawler tasks) go out in one write.
 *
 * The FIRST connect is bounded separately by `connectTimeoutSecs` (see `ConnectionHandle`), so a wrong URL fails
 * with `RedisUnreachableError` instead of retrying for ever. Connections the caller passes in keep their own options.
 */
export const OWNED_CONNECTION_OPTIONS: Readonly<RedisOptions> = Object.freeze({
  maxRetriesPerRequest: null,
  enableAutoPipelining: true,
});

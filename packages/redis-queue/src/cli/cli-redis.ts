import { Cluster } from 'ioredis';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';
import { ConnectionHandle } from '../core/connection.js';
import { maskRedisUrl } from '../core/mask-redis-url.js';
import { CliUsageError } from './errors/cli-usage-error.js';
import { maskCredentials } from './mask-credentials.js';
import { NotRedisError } from './errors/not-redis-error.js';
import { speaksRedis } from './speaks-redis.js';

/** Seconds the CLI waits for Redis (each seed node, then the Cluster) before it gives up (exit 1). */
export const CLI_CONNECT_TIMEOUT_SECS = 5;

/**
 * The `--redis` value: one `redis://` / `rediss://` URL, or the seed nodes of a Redis Cluster as URLs separated by
 * commas (what ioredis' `new Cluster([...])` takes; the first URL's user, password and scheme apply to every node).
 *
 * @param value - the option (or `REDIS_URL`)
 * @returns the URLs, in the given order
 * @throws {@link CliUsageError} for an empty entry, a URL that is not redis(s)://, mixed schemes, or a database
 *   index in a list of seed nodes (a Cluster has database 0 only)
 */
export function parseRedisUrls(value: string): string[] {
  const urls = value.split(',').map((part) => part.trim());
  const shown = maskCredentials(JSON.stringify(value));
  if (urls.some((url) => url === '')) throw new CliUsageError(`--redis has an empty entry (got ${shown}); give one URL, or a Redis Cluster's seed nodes separated by commas`);
  for (const url of urls) {
    if (!/^rediss?:\/\//i.test(url) || !URL.canParse(url)) throw new CliUsageError(`--redis must be a redis:// or rediss:// URL, or several separated by commas for a Redis Cluster (got ${shown})`);
  }
  if (urls.length > 1) {
    if (new Set(urls.map((url) => new URL(url).protocol.toLowerCase())).size > 1) throw new CliUsageError('--redis: the seed nodes of one Redis Cluster use one scheme, all redis:// or all rediss://');
    const withDb = urls.find((url) => !/^\/?0?$/.test(new URL(url).pathname));
    if (withDb) throw new CliUsageError(`--redis: a Redis Cluster has database 0 only; drop the path of ${maskRedisUrl(withDb)}`);
  }
  return urls;
}

/** The CLI's connection: a standalone Redis, or a Redis Cluster reached through its seed nodes. */
export interface CliRedis {
  /** Every Redis command of the CLI goes through this handle. */
  readonly handle: ConnectionHandle;
  /** True when the server reported `cluster_enabled:1`. */
  readonly cluster: boolean;
  /** Closes the connection. */
  close(): Promise<void>;
}

/** A Cluster on these seed nodes; the first URL's credentials and TLS apply to every node (ioredis takes a seed
 * URL's credentials for that seed only, not for the nodes it finds through CLUSTER SLOTS). */
function openCluster(urls: string[]): Cluster {
  const first = new URL(urls[0]!);
  const seeds = urls.map((url) => {
    const u = new URL(url);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port === '' ? 6379 : Number(u.port) };
  });
  return new Cluster(seeds, {
    enableAutoPipelining: true,
    redisOptions: {
      maxRetriesPerRequest: 2,
      ...(first.username !== '' ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password !== '' ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}

/** Waits for the Cluster's first `ready`, at most {@link CLI_CONNECT_TIMEOUT_SECS}. */
function clusterReady(cluster: Cluster, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let last: Error | undefined;
    const onError = (error: Error) => (last = error);
    const timer = setTimeout(() => {
      cluster.off('ready', onReady);
      cluster.disconnect();
      reject(new RedisUnreachableError(url, CLI_CONNECT_TIMEOUT_SECS, { cause: last }));
    }, CLI_CONNECT_TIMEOUT_SECS * 1000);
    const onReady = () => {
      clearTimeout(timer);
      cluster.off('error', onError);
      resolve();
    };
    cluster.on('error', onError);
    cluster.once('ready', onReady);
  });
}

/**
 * Connects to the Redis of `--redis`: the first seed that answers is asked `INFO cluster`; a standalone server is
 * used as it is, a Cluster node (also a single URL of one) makes the CLI open a Cluster over every given URL, as
 * the library does with an ioredis `Cluster`. A wrong password or database is reported by the first seed at once.
 *
 * @param urls - from {@link parseRedisUrls}
 * @param keyPrefix - for the ACL advice of a refused command
 * @returns the connection, ready
 * @throws `RedisUnreachableError` when no seed answers within {@link CLI_CONNECT_TIMEOUT_SECS} each, or the
 *   Cluster is not ready within as long; `RedisAuthError`, `RedisDatabaseError`, `RedisTlsError` from the first seed
 * @throws {@link CliUsageError} for several URLs of a server that is not in cluster mode
 * @throws {@link NotRedisError} when the (last) seed answers, but not in Redis's protocol
 */
export async function connectCliRedis(urls: string[], keyPrefix: string): Promise<CliRedis> {
  let probe: ConnectionHandle | undefined;
  for (let i = 0; probe === undefined; i++) {
    const handle = new ConnectionHandle(urls[i], { maxRetriesPerRequest: 2 }, CLI_CONNECT_TIMEOUT_SECS, 0, undefined, keyPrefix);
    try {
      await handle.waitForFirstConnect();
      probe = handle;
    } catch (error) {
      // Another seed may answer when this one is down; any answer (auth, database, TLS) is final. A port that
      // answers in another protocol (an HTTP server) looks like a failing Redis to ioredis: say what it is.
      if (error instanceof RedisUnreachableError && (await speaksRedis(urls[i]!)) === false) {
        if (i === urls.length - 1) throw new NotRedisError(maskRedisUrl(urls[i]!));
        continue;
      }
      if (!(error instanceof RedisUnreachableError) || i === urls.length - 1) throw error;
    }
  }
  // A user whose ACL refuses INFO: one URL is taken for a standalone server, several for a Cluster's seed nodes.
  const info = await probe.run(() => probe.redis.info('cluster')).catch(() => (urls.length > 1 ? 'cluster_enabled:1' : ''));
  if (!/^cluster_enabled:1\b/m.test(String(info))) {
    if (urls.length > 1) {
      await probe.close();
      throw new CliUsageError(`--redis lists several URLs (the seed nodes of a Redis Cluster), but ${maskRedisUrl(urls[0]!)} is not in cluster mode; give one URL`);
    }
    return { handle: probe, cluster: false, close: () => probe.close() };
  }
  await probe.close();
  const cluster = openCluster(urls);
  await clusterReady(cluster, urls[0]!);
  const handle = new ConnectionHandle(cluster, {}, undefined, 0, undefined, keyPrefix);
  return {
    handle,
    cluster: true,
    close: async () => {
      await handle.close();
      await cluster.quit().catch(() => cluster.disconnect());
    },
  };
}

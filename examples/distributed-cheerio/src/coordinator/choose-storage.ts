import { log } from 'crawlee';
import { RedisAuthError } from '../errors/redis-auth-error.js';
import { RedisDatabaseError } from '../errors/redis-database-error.js';
import { RedisPermissionError } from '../errors/redis-permission-error.js';
import { RedisTlsError } from '../errors/redis-tls-error.js';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';
import { maskUrl } from '../mask-credentials.js';
import { redisUrlsOf, type RunOptions } from '../options.js';
import { UsageError } from '../errors/usage-error.js';
import { launchRedisServer, redisServerBin, type LaunchedRedis } from '../redis/launch-redis-server.js';
import { probeRedis, type RedisProbe } from '../redis/probe-redis.js';

/** Where the run keeps its queue. */
export type StorageChoice =
  /** `cluster`: the server is a Redis Cluster node; `url` is then one seed node or several, joined by commas. */
  | { kind: 'redis'; url: string; cluster: boolean }
  | { kind: 'redis-started-for-run'; url: string; cluster: false; server: LaunchedRedis }
  | { kind: 'memory-one-process' };

const hostOf = (url: string): string => new URL(url).hostname.replace(/^\[|\]$/g, '');

/** True for a host name that is this machine (a Redis there answers fast: a short probe time-out). */
export function isLoopbackUrl(url: string): boolean {
  const host = hostOf(url);
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The hosts for which a refused connection may start a private redis-server (what the README and --help name). */
export const PRIVATE_REDIS_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/**
 * True when a refused connection to `url` may be answered by starting a private redis-server (on 127.0.0.1 and a
 * free port): only for the usual addresses of a Redis on this machine. Another loopback address (127.0.0.2, ...)
 * was chosen on purpose, for a server bound there; crawling elsewhere would ignore that choice.
 */
export function mayStartPrivateRedis(url: string): boolean {
  return PRIVATE_REDIS_HOSTS.includes(hostOf(url));
}

/**
 * Turns an answer from Redis into the typed error that says what to do. Only a refused connection is not an answer.
 *
 * @throws the error for `probe` (never returns for anything but `ok` and `refused`)
 */
function throwUnlessUsable(url: string, probe: RedisProbe): void {
  const masked = maskUrl(url);
  switch (probe.kind) {
    case 'ok':
    case 'refused':
      return;
    case 'auth':
      throw new RedisAuthError(masked, probe.detail);
    case 'noperm':
      throw new RedisPermissionError(masked, probe.detail);
    case 'database':
      throw new RedisDatabaseError(masked, probe.db, probe.detail);
    case 'tls':
      throw new RedisTlsError(masked, probe.detail);
    case 'unresolved':
      throw new RedisUnreachableError(
        masked,
        probe.detail,
        `The host "${probe.host}" does not resolve: check the host name in --redis / REDIS_URL (and this machine's DNS). ` +
          'Nothing was started.',
      );
    case 'timeout':
    case 'closed':
      throw new RedisUnreachableError(
        masked,
        probe.detail,
        'Something is at that address but it did not answer like Redis: check host, port, firewall and redis:// vs ' +
          'rediss://. Nothing was started (a private redis-server stands in only when the connection is refused).',
      );
  }
}

/**
 * Whether the Redis that answered is a Cluster the crawl can use.
 *
 * @returns true for a Cluster node, false for a standalone Redis
 * @throws {@link UsageError} when several URLs were given (seed nodes) but the server is no Cluster node
 * @throws {@link RedisUnreachableError} when the Cluster does not serve every slot (`cluster_state:fail`)
 */
function usableCluster(seeds: string[], answered: string, probe: RedisProbe & { kind: 'ok' }): boolean {
  if (!probe.cluster) {
    if (seeds.length > 1) {
      throw new UsageError(
        `--redis lists ${seeds.length} URLs, the seed nodes of a Redis Cluster, but ${maskUrl(answered)} is a standalone Redis ` +
          '(INFO cluster: cluster_enabled:0): give one URL for a standalone Redis.',
      );
    }
    return false;
  }
  if (probe.clusterState !== undefined && probe.clusterState !== 'ok') {
    throw new RedisUnreachableError(
      maskUrl(answered),
      `cluster_state:${probe.clusterState}`,
      'The Redis Cluster does not serve every hash slot (a master down without a replica, or slots not assigned): ' +
        'check `redis-cli -c -h HOST -p PORT cluster info`. Nothing was started.',
    );
  }
  return true;
}

/**
 * Uses the Redis at the given URL when it answers. When the connection is refused (nothing listens) on this machine,
 * starts a `redis-server` on a free loopback port for this run; when no binary is installed, falls back to one
 * process on Crawlee's MemoryStorage, and says so. Any answer from Redis (NOAUTH, WRONGPASS, NOPERM, a database
 * index out of range, a TLS failure, a timeout) is an error, never a fallback: other machines may be using that Redis.
 *
 * @throws {@link RedisAuthError}, {@link RedisPermissionError}, {@link RedisDatabaseError}, {@link RedisTlsError}
 * @throws {@link RedisUnreachableError} on a host name that does not resolve, a timeout, or on a refused connection with `--join` or to another host
 */
export async function chooseStorage(options: RunOptions): Promise<StorageChoice> {
  if (options.memory) {
    log.info('--memory: crawling in this process on Crawlee MemoryStorage (no Redis, no worker processes)');
    return { kind: 'memory-one-process' };
  }
  const masked = maskUrl(options.redisUrl);
  const seeds = redisUrlsOf(options.redisUrl);
  let probe: RedisProbe = { kind: 'refused', detail: 'no URL' };
  let answered = seeds[0]!;
  // A Cluster's seed nodes are tried in turn, as ioredis does: the first that answers decides.
  for (const seed of seeds) {
    answered = seed;
    // A time-out is an error now, never a fallback: give a Redis across the network more time than one on loopback.
    probe = await probeRedis(seed, isLoopbackUrl(seed) ? 1_500 : 5_000);
    if (probe.kind !== 'refused') break;
  }
  throwUnlessUsable(answered, probe);
  if (probe.kind === 'ok') return { kind: 'redis', url: options.redisUrl, cluster: usableCluster(seeds, answered, probe) };
  if (seeds.length > 1) {
    throw new RedisUnreachableError(masked, probe.detail, 'None of the Redis Cluster\'s seed nodes accepts a connection: start the cluster or fix --redis / REDIS_URL. Nothing was started.');
  }
  if (options.join) {
    throw new RedisUnreachableError(masked, probe.detail, 'Start Redis there: --join must reach the Redis the other machines use, it never starts its own.');
  }
  if (!mayStartPrivateRedis(options.redisUrl)) {
    throw new RedisUnreachableError(
      masked,
      probe.detail,
      'Start Redis there or fix --redis / REDIS_URL. A private redis-server stands in only for a Redis at ' +
        `${PRIVATE_REDIS_HOSTS.join(', ')} (this machine's usual addresses): at another address, other machines (or a ` +
        'server bound there) would be crawling on the real one.',
    );
  }
  log.warning(`nothing answers at ${masked}; starting ${redisServerBin()} on a free loopback port for this run`);
  if (options.queueName !== undefined) {
    log.warning(`queue "${options.queueName}" lives in that private redis-server only: it is gone when this run ends, so it cannot be resumed or joined`);
  }
  const server = await launchRedisServer();
  if (server !== undefined) {
    log.info(`redis-server (pid ${server.pid}) listens at ${server.url}; it stops when the run ends`);
    return { kind: 'redis-started-for-run', url: server.url, cluster: false, server };
  }
  log.warning(
    `no redis-server installed (apt-get install redis-server, or brew install redis): crawling in ONE process ` +
      'with Crawlee MemoryStorage and an in-memory Bloom filter instead of worker processes',
  );
  return { kind: 'memory-one-process' };
}

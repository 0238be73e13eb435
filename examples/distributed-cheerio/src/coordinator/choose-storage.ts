import { log } from 'crawlee';
import { RedisUnreachableError } from '../errors/redis-unreachable-error.js';
import type { RunOptions } from '../options.js';
import { launchRedisServer, redisServerBin, type LaunchedRedis } from '../redis/launch-redis-server.js';
import { pingRedis } from '../redis/ping.js';

/** Where the run keeps its queue. */
export type StorageChoice =
  | { kind: 'redis'; url: string }
  | { kind: 'redis-started-for-run'; url: string; server: LaunchedRedis }
  | { kind: 'memory-one-process' };

/**
 * Uses the Redis at the given URL when it answers; otherwise starts a `redis-server` on a free loopback port for this
 * run; otherwise (no binary) falls back to one process on Crawlee's MemoryStorage, and says so.
 *
 * @throws {@link RedisUnreachableError} with `--join`, which must reach the Redis other machines use
 */
export async function chooseStorage(options: RunOptions): Promise<StorageChoice> {
  if (options.memory) {
    log.info('--memory: crawling in this process on Crawlee MemoryStorage (no Redis, no worker processes)');
    return { kind: 'memory-one-process' };
  }
  if (await pingRedis(options.redisUrl)) return { kind: 'redis', url: options.redisUrl };
  if (options.join) throw new RedisUnreachableError(options.redisUrl);
  log.warning(`nothing answers at ${options.redisUrl}; starting ${redisServerBin()} on a free loopback port for this run`);
  const server = await launchRedisServer();
  if (server !== undefined) {
    log.info(`redis-server (pid ${server.pid}) listens at ${server.url}; it stops when the run ends`);
    return { kind: 'redis-started-for-run', url: server.url, server };
  }
  log.warning(
    `no redis-server installed (apt-get install redis-server, or brew install redis): crawling in ONE process ` +
      'with Crawlee MemoryStorage and an in-memory Bloom filter instead of worker processes',
  );
  return { kind: 'memory-one-process' };
}

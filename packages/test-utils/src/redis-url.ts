import { Redis } from 'ioredis';
import { RedisUnavailableError } from './errors.js';
import { startRedisServer, type RedisServerHandle } from './redis-server.js';

let started: RedisServerHandle | undefined;

/** True when a Redis answers PING at `url` within `timeoutMs`. */
export async function pingRedis(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The Redis the tests use: `REDIS_URL` if set (it must answer), else 127.0.0.1:6379 if it answers,
 * else a `redis-server` started on a free loopback port for this process (stopped by {@link stopTestRedis}).
 *
 * @throws {@link RedisUnavailableError} with install instructions when none can be reached or started.
 */
export async function redisUrlForTests(): Promise<string> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) {
    if (await pingRedis(fromEnv)) return fromEnv;
    throw new RedisUnavailableError(`REDIS_URL=${fromEnv} does not answer PING`);
  }
  const local = 'redis://127.0.0.1:6379';
  if (await pingRedis(local)) return local;
  started ??= await startRedisServer();
  return started.url;
}

/** Stops the server {@link redisUrlForTests} started, if it started one. */
export async function stopTestRedis(): Promise<void> {
  const server = started;
  started = undefined;
  await server?.destroy();
}

import { ConnectionHandle as KitConnectionHandle, resolveRedisTarget, type RedisConnectionOption } from '@crawlee-distributed/redis-kit';
import type { RedisOptions } from 'ioredis';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { queueAclAdvice } from './acl-advice.js';
import { defineScripts } from './scripts.js';

export {
  DEFAULT_CONNECT_TIMEOUT_SECS,
  isCluster,
  type RedisConnection,
  type RedisConnectionOption,
} from '@crawlee-distributed/redis-kit';

function checkTimeout(connectTimeoutSecs: number | undefined): number | undefined {
  if (connectTimeoutSecs !== undefined && !(typeof connectTimeoutSecs === 'number' && connectTimeoutSecs > 0 && Number.isFinite(connectTimeoutSecs))) {
    throw new InvalidOptionsError(`connectTimeoutSecs must be a positive number of seconds (got ${String(connectTimeoutSecs)})`);
  }
  return connectTimeoutSecs;
}

/**
 * The queue's connection: the kit's one connection policy (waits through restarts, auto-pipelining, first connect
 * bounded by `connectTimeoutSecs`), and the socket does not keep the process alive while no command is in flight,
 * so a worker exits when its crawl is done. Every command of the queue goes through {@link ConnectionHandle.run}.
 */
export class ConnectionHandle extends KitConnectionHandle {
  /**
   * @param option - a URL, or an ioredis `Redis`/`Cluster`; defaults to `REDIS_URL`, else `redis://127.0.0.1:6379`
   * @param redisOptions - extra ioredis options for a connection created from a URL
   * @param connectTimeoutSecs - seconds the first connect of a connection created from a URL may take
   * @param failoverTimeoutSecs - seconds an operation is retried through failover errors (0: never)
   * @param reconnectTimeoutSecs - seconds a lost connection may take to come back before operations fail (validated by the caller)
   * @param keyPrefix - the queues' key prefix, named in the ACL advice of a `RedisPermissionError`
   * @throws {@link InvalidOptionsError} when `option` is neither a URL nor an ioredis connection, or the timeout is
   *   not a positive number
   */
  constructor(option: RedisConnectionOption | undefined, redisOptions: RedisOptions = {}, connectTimeoutSecs?: number, failoverTimeoutSecs = 0, reconnectTimeoutSecs?: number, keyPrefix = 'crawlee') {
    super(resolveRedisTarget(option ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', (message) => new InvalidOptionsError(message)), {
      packageName: 'crawlee-redis-queue',
      connectTimeoutSecs: checkTimeout(connectTimeoutSecs),
      redisOptions,
      unrefWhenIdle: true,
      failoverTimeoutSecs,
      ...(reconnectTimeoutSecs !== undefined ? { reconnectTimeoutSecs } : {}),
      permissionAdvice: queueAclAdvice(keyPrefix),
    });
    // Before any command: a plain command (the admin's layout read) may open an auto-pipeline that a script defined
    // later would be missing from.
    defineScripts(this.redis);
  }
}

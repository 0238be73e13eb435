import type { EnqueueFilterSource } from '@crawlee-distributed/redis-kit/seam';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { isCluster, type RedisConnection } from '../core/connection.js';

interface ServerAddress {
  host?: string;
  port?: number;
  db?: number;
  path?: string;
}

function addressOf(redis: unknown): ServerAddress | undefined {
  const options = (redis as { options?: ServerAddress }).options;
  if (!options || isCluster(redis)) return undefined;
  return { host: options.host ?? '127.0.0.1', port: options.port ?? 6379, db: options.db ?? 0, path: options.path };
}

function normalizeHost(host: string | undefined): string | undefined {
  return host === 'localhost' || host === '::1' ? '127.0.0.1' : host;
}

/**
 * The sink's attach rule of the enqueue-filter seam: same Redis server and db (same connection object, or same
 * host/port/db of two standalone connections), and on a Cluster every source key on the queue's slot.
 *
 * @param queueRedis - the queue's connection
 * @param queueTag - the queue's hash tag (`{prefix:rq:name}`)
 * @param source - the dedup store
 * @returns true when the store's plans can run inside the queue's add script
 */
export function canAttachEnqueueFilter(queueRedis: RedisConnection, queueTag: string, source: EnqueueFilterSource): boolean {
  if (!source || typeof source.planEnqueueFilter !== 'function' || typeof source.enqueueFilterKeys !== 'function') return false;
  const sameConnection = source.redis === queueRedis;
  if (!sameConnection) {
    if (isCluster(queueRedis) || isCluster(source.redis)) return false;
    const a = addressOf(queueRedis);
    const b = addressOf(source.redis);
    if (!a || !b) return false;
    const same = a.path || b.path ? a.path === b.path && a.db === b.db : normalizeHost(a.host) === normalizeHost(b.host) && a.port === b.port && a.db === b.db;
    if (!same) return false;
  }
  if (isCluster(queueRedis)) {
    const slot = slotOf(queueTag);
    return source.enqueueFilterKeys().every((key) => slotOf(key) === slot);
  }
  return true;
}

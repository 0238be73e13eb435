import type { ConnectionHandle } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import { redisTimeMs } from '../core/redis-time-ms.js';

/**
 * The producer leases of a queue alive now (Redis time): O(log N + leases).
 * @param connection - the connection
 * @param keys - the queue's keys
 * @returns lease ids and expiries, soonest expiry first
 */
export async function readProducerLeases(connection: ConnectionHandle, keys: QueueKeys): Promise<Array<{ id: string; expiresAt: Date }>> {
  const nowMs = redisTimeMs((await connection.run(() => connection.redis.time())) as [string | number, string | number]);
  const flat = await connection.run(() => connection.redis.zrangebyscore(keys.leases, `(${nowMs}`, '+inf', 'WITHSCORES'));
  const out: Array<{ id: string; expiresAt: Date }> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i]!, expiresAt: new Date(Number(flat[i + 1])) });
  return out;
}

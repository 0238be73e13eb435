import type { ConnectionHandle } from '../core/connection.js';
import type { QueueKeys } from '../core/keys.js';
import type { DeadLetter } from './admin-types.js';

/**
 * Reads a queue's dead letters (admin use: reads the whole dead-letter hash).
 * @param connection - the connection
 * @param keys - the queue's (or one shard's) keys
 * @returns every dead letter, oldest first
 */
export async function readDeadLetters(connection: ConnectionHandle, keys: QueueKeys): Promise<DeadLetter[]> {
  const redis = connection.redis;
  const [raws, infos] = await connection.run(() => Promise.all([redis.hgetallBuffer(keys.dead), redis.hgetall(keys.deadInfo)]));
  const letters: DeadLetter[] = [];
  for (const [id, raw] of Object.entries(raws)) {
    let info: { reason?: string; source?: string; at?: number; stalls?: number } = {};
    try {
      info = JSON.parse(infos[id] ?? '{}') as typeof info;
    } catch {
      info = { reason: 'dead-letter info unreadable' };
    }
    letters.push({
      id,
      raw,
      reason: info.reason ?? 'unknown',
      source: info.source === 'feed' || info.source === 'takeover' ? info.source : 'queue',
      at: new Date(info.at ?? 0),
      ...(typeof info.stalls === 'number' ? { stalls: info.stalls } : {}),
    });
  }
  return letters.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
}

/**
 * Deletes dead letters for good, 500 per command.
 * @param connection - the connection
 * @param keys - the queue's (or one shard's) keys
 * @param ids - only these dead-letter ids (default: all)
 * @returns how many were deleted
 */
export async function deleteDeadLetters(connection: ConnectionHandle, keys: QueueKeys, ids?: string[]): Promise<number> {
  const redis = connection.redis;
  const targets = ids ?? (await connection.run(() => redis.hkeys(keys.dead)));
  let deleted = 0;
  for (let start = 0; start < targets.length; start += 500) {
    const chunk = targets.slice(start, start + 500);
    deleted += await connection.run(() => redis.hdel(keys.dead, ...chunk));
    await connection.run(() => redis.hdel(keys.deadInfo, ...chunk));
  }
  return deleted;
}

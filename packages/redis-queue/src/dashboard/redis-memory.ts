import { isCluster, type RedisConnection } from '../core/connection.js';

function usedMemory(info: string): number {
  const match = /^used_memory:(\d+)/m.exec(info);
  return match ? Number(match[1]) : 0;
}

/**
 * Bytes of memory Redis uses (`INFO memory` `used_memory`), summed over the masters of a Cluster. This is the whole
 * server's memory, not one queue's.
 *
 * @param redis - the connection
 * @returns bytes
 */
export async function redisMemoryBytes(redis: RedisConnection): Promise<number> {
  if (isCluster(redis)) {
    const infos = await Promise.all(redis.nodes('master').map((node) => node.info('memory')));
    return infos.reduce((sum, info) => sum + usedMemory(info), 0);
  }
  return usedMemory(await redis.info('memory'));
}

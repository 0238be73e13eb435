import type { HandledRequestsMode } from '../../src/queue/handled-store.js';
import type { RedisConnection } from '../../src/core/connection.js';
import type { QueueKeys } from '../../src/core/keys.js';

/**
 * What the handled store of a queue holds, read directly from Redis: 'request' the entries of `done`, 'key' the
 * entries of every index bucket (2^hxL + hxS of them, each counted with HLEN), 'bits' the number of set bits divided
 * by k (an upper bound of the handled count: ids share bits).
 * @param redis - a connection
 * @param keys - the queue's keys
 * @param mode - the queue's mode
 */
export async function handledStoreCount(redis: RedisConnection, keys: QueueKeys, mode: HandledRequestsMode): Promise<number> {
  if (mode === 'request') return redis.hlen(keys.done);
  const [hxL, hxS, hbK, hbBlocks] = await redis.hmget(keys.meta, 'hxL', 'hxS', 'hbK', 'hbBlocks');
  if (mode === 'bits') {
    let bits = 0;
    for (let i = 0; i < Number(hbBlocks); i++) bits += await redis.bitcount(`${keys.hbPrefix}${i}`);
    return bits / Number(hbK);
  }
  const buckets = 2 ** Number(hxL ?? 0) + Number(hxS ?? 0);
  let n = 0;
  for (let b = 0; b < buckets; b++) n += await redis.hlen(`${keys.ixPrefix}${b}`);
  return n;
}

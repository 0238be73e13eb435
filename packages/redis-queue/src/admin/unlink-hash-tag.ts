import { hashTagOf } from '@crawlee-distributed/redis-kit';
import { isCluster, type ConnectionHandle } from '../core/connection.js';

/**
 * Deletes every key with the hash tag `tag` (braces included), found with `SCAN MATCH` on each master: an admin
 * action that reads the key space, never for a hot path.
 * @param connection - the connection
 * @param tag - e.g. `{crawlee:rq:my-crawl}`
 * @returns the number of keys deleted
 */
export async function unlinkHashTag(connection: ConnectionHandle, tag: string): Promise<number> {
  const redis = connection.redis;
  const inner = tag.slice(1, -1);
  const pattern = `*${tag.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const nodes = isCluster(redis) ? redis.nodes('master') : [redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await connection.run(() => node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
      cursor = next;
      const mine = found.filter((key) => hashTagOf(key) === inner);
      if (mine.length > 0) deleted += await connection.run(() => node.unlink(...mine));
    } while (cursor !== '0');
  }
  return deleted;
}

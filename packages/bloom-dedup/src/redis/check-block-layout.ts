import { hasHashTag, permissionErrorOf } from '@crawlee-distributed/redis-kit';
import { IncompatibleFilterError } from '../errors/incompatible-filter-error.js';
import type { RedisConnection } from './connection.js';
import { legacyBlockKey, type BloomKeys } from './bloom-keys.js';

/**
 * Refuses to open a spread filter (untagged key, more than one block) whose bits are still at the 0.1 keys
 * (`{key:<i>}:bits`, a layout a one-block filter named `key:<i>` shared): opening it at the new keys would
 * silently forget every key it saw. Two EXISTS on open, nothing on the hot path.
 *
 * @param redis - the connection
 * @param key - the store's key
 * @param keys - the filter's keys in the current layout
 * @throws {@link IncompatibleFilterError} (field `blockLayout`) when only the old layout holds bits
 * @throws RedisPermissionError when the user's ACL does not cover the block keys
 */
export async function checkBlockLayout(redis: RedisConnection, key: string, keys: BloomKeys): Promise<void> {
  if (keys.blocks.length === 1 || hasHashTag(key)) return;
  const [legacy, current] = await Promise.all([redis.exists(legacyBlockKey(key, 0)), redis.exists(keys.blocks[0]!)]).catch(
    (error: unknown) => {
      throw permissionErrorOf(error, `RedisBloomDedupStore(${key}) open`) ?? error;
    },
  );
  if (legacy === 1 && current === 0) {
    throw new IncompatibleFilterError(
      key,
      'blockLayout',
      `"{${key}:<i>}:bits" (0.1)`,
      `"{${key}:bits:<i>}" (RENAME each old block key to its new name, or delete both layouts to start empty)`,
    );
  }
}

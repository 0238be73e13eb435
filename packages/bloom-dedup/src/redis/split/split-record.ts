import { permissionErrorOf } from '@crawlee-distributed/redis-kit';
import { StoreLayoutMismatchError } from '../../errors/store-layout-mismatch-error.js';
import type { RedisConnection } from '../connection.js';
import { SPLIT_REPLY } from '../reply-codes.js';
import { runScript } from '../scripts.js';
import { checkSplitLayout, describeLayout, tagsJson, type SplitLayout } from './split-layout.js';

/** Where a store records its split. */
export interface SplitRecordKeys {
  /** The store's key (for messages). */
  key: string;
  /** The root hash holding `parts`, `shardBy`, `partTags` (Bloom: the meta hash; set: the stats hash). */
  root: string;
  /** The unsplit data key that must not exist for a split to be recorded (the set), or `root` (Bloom). */
  data: string;
}

const ADVICE =
  'A store attached to a sharded queue on a Cluster is split into one part per shard, each part in its shard\'s hash ' +
  'tag; its keys cannot be moved there. Open the store under a new key for this queue (the old keys stay as they ' +
  'are), delete the old keys if they are no longer needed, or attach it only to the queue (and shard count) it was split for.';

/**
 * The split recorded at a store's root hash, if any (read on open, so a process that only opens the store routes its
 * keys like the processes that attached it).
 * @param redis - the connection
 * @param keys - the store's keys
 * @returns the layout, or undefined for an unsplit (or new) store
 * @throws {@link StoreLayoutMismatchError} when the record cannot be read (written by something else)
 */
export async function readSplitRecord(redis: RedisConnection, keys: SplitRecordKeys): Promise<SplitLayout | undefined> {
  const [parts, shardBy, partTags] = await redis.hmget(keys.root, 'parts', 'shardBy', 'partTags').catch((error: unknown) => {
    throw permissionErrorOf(error, `dedup store ${keys.key} open`) ?? error;
  });
  if (parts === null || parts === undefined) return undefined;
  let tags: unknown;
  try {
    tags = JSON.parse(partTags ?? '');
  } catch {
    tags = undefined;
  }
  try {
    const layout = checkSplitLayout({ tags: tags as string[], shardBy: shardBy as SplitLayout['shardBy'] }, keys.root);
    if (String(layout.tags.length) !== parts) throw new Error('parts differs from the tag count');
    return layout;
  } catch (error) {
    throw new StoreLayoutMismatchError(
      keys.key,
      `recorded as split with an unreadable layout at ${keys.root} (parts ${parts}, shardBy ${String(shardBy)})`,
      'opened',
      `Delete ${keys.root} only if the store holds nothing you need, or repair its fields parts, shardBy, partTags.`,
      { cause: error },
    );
  }
}

/**
 * Records the split (one script on the root hash's slot), or checks the one recorded.
 * @param redis - the connection
 * @param keys - the store's keys
 * @param layout - the split asked for
 * @throws {@link StoreLayoutMismatchError} when the store holds keys unsplit, or another split is recorded (nothing written)
 */
export async function claimSplit(redis: RedisConnection, keys: SplitRecordKeys, layout: SplitLayout): Promise<void> {
  const reply = (await runScript(redis, 'splitClaim', [keys.root, keys.data], [layout.tags.length, layout.shardBy, tagsJson(layout)], keys.key)) as unknown[];
  const code = Number(reply[0]);
  if (code === SPLIT_REPLY.MATCHED || code === SPLIT_REPLY.RECORDED) return;
  const requested = describeLayout(layout);
  if (code === SPLIT_REPLY.UNSPLIT_IN_USE) {
    const items = Number(reply[4]);
    throw new StoreLayoutMismatchError(keys.key, `unsplit and holds keys (${items >= 0 ? `${items} added` : `${keys.data} is not empty`})`, requested, ADVICE);
  }
  let recorded = `split another way (parts ${String(reply[1])}, shardBy ${String(reply[2])})`;
  try {
    recorded = describeLayout(checkSplitLayout({ tags: JSON.parse(String(reply[3])) as string[], shardBy: String(reply[2]) as SplitLayout['shardBy'] }, keys.root));
  } catch {
    // keep the short form
  }
  throw new StoreLayoutMismatchError(keys.key, recorded, requested, ADVICE);
}

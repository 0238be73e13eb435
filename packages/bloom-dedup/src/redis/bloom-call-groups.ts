import { slotOf } from '@crawlee-distributed/redis-kit';
import { digestHex, modBigEndian } from '../bloom/bit-indexes.js';
import { InvalidDedupOptionsError } from '../errors/invalid-dedup-options-error.js';
import type { BloomKeys } from './bloom-keys.js';
import { isCluster, type RedisConnection } from './connection.js';

/** One script call: the keys it touches and which batch positions it answers. */
export interface CallGroup {
  keys: string[];
  keyIndex: Map<string, number>;
  positions: number[];
  args: (string | number)[];
  withCounter: boolean;
}

/** What splitting a batch needs to know of the filter. */
export interface BatchLayout {
  keys: BloomKeys;
  /** The filter's block count. */
  blocks: number;
  /** Keys per script call at most. */
  maxBatch: number;
}

/** Block index of each key and its lowercase digest. */
function locate(keys: readonly string[], blockCount: number): { digests: string[]; blocks: number[] } {
  const digests = keys.map((key) => {
    if (typeof key !== 'string') throw new InvalidDedupOptionsError(`dedup keys must be strings, got ${typeof key}`);
    return digestHex(key);
  });
  const blocks = digests.map((d) => (blockCount === 1 ? 0 : modBigEndian(Buffer.from(d, 'hex'), 16, 4, blockCount)));
  return { digests, blocks };
}

/**
 * Splits a batch into script calls: one per slot on a Cluster, one in total on a single node (each at most
 * `maxBatch` keys). A call carries the shared counter only when its slot is the meta hash's.
 * @param redis - the connection (a Cluster groups by slot)
 * @param keys - dedup keys, in batch order
 * @param withCounter - whether the calls bump the meta hash's counter
 * @param layout - the filter's keys, block count and batch bound
 * @throws {@link InvalidDedupOptionsError} when a key is not a string
 */
export function callGroups(redis: RedisConnection, keys: readonly string[], withCounter: boolean, layout: BatchLayout): CallGroup[] {
  const { digests, blocks } = locate(keys, layout.blocks);
  const cluster = isCluster(redis);
  const metaSlot = slotOf(layout.keys.meta);
  const bySlot = new Map<number, CallGroup>();
  const all: CallGroup[] = [];
  for (let i = 0; i < digests.length; i++) {
    const blockKey = layout.keys.blocks[blocks[i] as number] as string;
    const slot = cluster ? slotOf(blockKey) : 0;
    let group = bySlot.get(slot);
    if (!group || group.positions.length >= layout.maxBatch) {
      group = { keys: [], keyIndex: new Map(), positions: [], args: [], withCounter: false };
      group.withCounter = withCounter && (!cluster || slot === metaSlot);
      bySlot.set(slot, group);
      all.push(group);
    }
    let index = group.keyIndex.get(blockKey);
    if (index === undefined) {
      group.keys.push(blockKey);
      index = group.keys.length;
      group.keyIndex.set(blockKey, index);
    }
    group.positions.push(i);
    group.args.push(index, digests[i] as string);
  }
  return all;
}

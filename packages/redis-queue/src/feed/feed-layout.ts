import { hashTagOf } from '@crawlee-distributed/redis-kit';
import { StartUrlFeedTypeError } from '../errors/start-url-feed-type-error.js';
import type { FeedStep } from './feed-entry.js';
import type { ConnectionHandle } from '../core/connection.js';
import { isCluster } from '../core/connection.js';

/** A feed key's layout as read this time; `none` when the key does not exist (an empty feed). */
export type FeedKeyLayout = 'list' | 'set' | 'zset' | 'none';

const READABLE: Record<string, FeedKeyLayout> = { list: 'list', set: 'set', zset: 'zset', none: 'none' };
/** What each configured layout accepts, in words (for {@link StartUrlFeedTypeError}). */
export const EXPECTED_FEED_TYPE = { list: 'a list', set: 'a set', zset: 'a sorted set', auto: 'a list, a set or a sorted set' } as const;
const EXPECTED = EXPECTED_FEED_TYPE;

function isWrongType(error: unknown): boolean {
  return error instanceof Error && /WRONGTYPE/.test(error.message);
}

/**
 * Checks a feed key's type (`TYPE`) against the configured layout.
 *
 * @param connection - the queue's connection
 * @param key - the feed key
 * @param layout - the configured layout
 * @returns the layout to read it with (`none` for a missing key)
 * @throws {@link StartUrlFeedTypeError} for a hash, string, stream, or a type other than the configured one
 */
export async function feedKeyLayout(connection: ConnectionHandle, key: string, layout: keyof typeof EXPECTED): Promise<FeedKeyLayout> {
  const type = String(await connection.run(() => connection.redis.type(key)));
  const found = READABLE[type];
  if (found === undefined || (layout !== 'auto' && found !== 'none' && found !== layout)) throw new StartUrlFeedTypeError(key, type, EXPECTED[layout]);
  return found;
}

/** One batch read from a feed key, and how the add script must commit it. */
export interface FeedBatch {
  raws: Buffer[];
  step: FeedStep;
}

/**
 * Reads up to `count` items of one feed key, as scrapy-redis takes them: a list from the left (`LRANGE`), a set in
 * any order (`SRANDMEMBER`, i.e. `SPOP` semantics), a sorted set highest score first (`ZREVRANGE`, as
 * `pop_priority_queue`). On one Redis, or when the key shares the queue's hash tag on a Cluster, the items are only
 * read here and the add script removes them while it enqueues them (atomic, nothing lost). A key on another Cluster
 * slot cannot be in the same script: its items are popped here (`LPOP` / `SPOP` / `ZPOPMAX`) and then committed, so
 * a worker killed in between loses that batch, as a scrapy-redis worker would.
 *
 * @param connection - the queue's connection
 * @param queueTag - the queue's hash tag
 * @param key - the feed key
 * @param layout - its layout (not `none`)
 * @param count - at most this many items
 * @returns the items and the feed step for the add script
 * @throws {@link StartUrlFeedTypeError} when the key turned out to hold another type (WRONGTYPE)
 */
export async function readFeedBatch(
  connection: ConnectionHandle,
  queueTag: string,
  key: string,
  layout: Exclude<FeedKeyLayout, 'none'>,
  count: number,
): Promise<FeedBatch> {
  const redis = connection.redis;
  const atomic = !isCluster(redis) || hashTagOf(key) === hashTagOf(queueTag);
  try {
    if (layout === 'list') {
      if (atomic) return { raws: await connection.run(() => redis.lrangeBuffer(key, 0, count - 1)), step: { kind: 'check', feedKey: key } };
      return { raws: (await connection.run(() => redis.lpopBuffer(key, count))) ?? [], step: { kind: 'popped' } };
    }
    if (layout === 'set') {
      if (atomic) return { raws: await connection.run(() => redis.srandmemberBuffer(key, count)), step: { kind: 'members', feedKey: key, layout } };
      return { raws: (await connection.run(() => redis.spopBuffer(key, count))) ?? [], step: { kind: 'popped' } };
    }
    if (atomic) return { raws: await connection.run(() => redis.zrevrangeBuffer(key, 0, count - 1)), step: { kind: 'members', feedKey: key, layout } };
    // RESP2 replies member, score, member, ...; RESP3 replies [member, score] pairs.
    const popped = (await connection.run(() => redis.zpopmaxBuffer(key, count))) as unknown[];
    const raws = popped.some(Array.isArray) ? popped.map((pair) => (pair as Buffer[])[0]!) : (popped.filter((_, i) => i % 2 === 0) as Buffer[]);
    return { raws, step: { kind: 'popped' } };
  } catch (error) {
    if (!isWrongType(error)) throw error;
    const type = String(await connection.run(() => redis.type(key)));
    throw new StartUrlFeedTypeError(key, type, EXPECTED[layout], { cause: error });
  }
}

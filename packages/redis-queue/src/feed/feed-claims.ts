import { randomBytes } from 'node:crypto';
import { sameSlotKey, slotOf } from '@crawlee-distributed/redis-kit';
import { StartUrlFeedTypeError } from '../errors/start-url-feed-type-error.js';
import type { ConnectionHandle } from '../core/connection.js';
import { FEED_CLAIM_REPLY } from '../core/reply-codes.js';
import { runScriptBuffer } from '../core/scripts.js';
import { mapScriptError } from '../core/map-script-error.js';
import type { StartUrlFeedLayout } from './feed-options.js';
import { EXPECTED_FEED_TYPE } from './feed-layout.js';

/** The claim keys of one feed key for one queue, on the feed key's Cluster slot (see claim-feed-batch.lua). */
export interface FeedClaimKeys {
  /** ZSET claim id -> lease expiry (ms, Redis time). */
  claims: string;
  /** HASH of the claimed items (`<id>:n`, `<id>:<i>`) and the `commits` counter. */
  claimed: string;
}

/**
 * Where the claims of feed key `feedKey` for the queue with hash tag `queueTag` live:
 * `{<feedKey>}:claims:<queue tag without braces>` (or `<feedKey>:claims:...` when the feed key has a hash tag), so
 * they share the feed key's slot and one script can pop the feed and record the claim. Per queue, so two queues
 * reading one feed key never replay each other's batches. A feed key holding a `}` but no hash tag (which
 * `{<key>}` would cut short) gets the first `{fc.<n>}` tag on its slot instead.
 *
 * @param feedKey - the feed key
 * @param queueTag - the queue's (root) hash tag, braces included
 * @returns the keys
 */
export function feedClaimKeys(feedKey: string, queueTag: string): FeedClaimKeys {
  const queue = queueTag.replace(/^\{|\}$/g, '');
  let base = sameSlotKey(feedKey, 'claims');
  if (slotOf(base) !== slotOf(feedKey)) {
    let salt = 0;
    while (slotOf(`{fc.${salt}}`) !== slotOf(feedKey)) salt++;
    base = `{fc.${salt}}:${feedKey}:claims`;
  }
  return { claims: `${base}:${queue}`, claimed: `${base}:${queue}:items` };
}

/** What one claim call found. */
export type FeedClaim =
  | { kind: 'claim'; id: string; raws: Array<Buffer | null>; replay: boolean }
  | { kind: 'empty'; liveClaims: number; commits: number };

/**
 * Claims one batch of a feed key (claim-feed-batch.lua): an expired claim of a dead worker first, else up to
 * `count` items popped from the feed into a new claim leased for `leaseMs`.
 *
 * @param connection - the queue's connection
 * @param feedKey - the feed key
 * @param keys - its claim keys ({@link feedClaimKeys})
 * @param layout - the configured layout
 * @param count - at most this many items
 * @param leaseMs - the claim's lease (ms)
 * @param clockOffsetMs - added to Redis time (tests only)
 * @returns the claim (its items as raw bytes; null for an item removed from the record by hand), or what is left
 * @throws {@link StartUrlFeedTypeError} when the key holds a type the layout cannot read (nothing done)
 */
export async function claimFeedBatch(
  connection: ConnectionHandle,
  feedKey: string,
  keys: FeedClaimKeys,
  layout: StartUrlFeedLayout,
  count: number,
  leaseMs: number,
  clockOffsetMs: string,
): Promise<FeedClaim> {
  const id = randomBytes(8).toString('hex');
  let reply: Array<Buffer | null>;
  try {
    reply = (await connection.run(() =>
      runScriptBuffer(connection.redis, 'claimFeedBatch', [feedKey, keys.claims, keys.claimed], [layout, count, Math.ceil(leaseMs), clockOffsetMs, id]),
    )) as Array<Buffer | null>;
  } catch (error) {
    throw mapScriptError(error, `start-URL feed ${feedKey} claimFeedBatch`);
  }
  const code = Number(reply[0]);
  if (code === FEED_CLAIM_REPLY.WRONG_TYPE) throw new StartUrlFeedTypeError(feedKey, String(reply[1]), EXPECTED_FEED_TYPE[layout]);
  if (code === FEED_CLAIM_REPLY.EMPTY) return { kind: 'empty', liveClaims: Number(reply[1]), commits: Number(reply[2]) };
  return { kind: 'claim', id: String(reply[1]), raws: reply.slice(2), replay: code === FEED_CLAIM_REPLY.REPLAYED };
}

/**
 * Deletes a claim whose items are all in the queue, and counts the commit (one MULTI on the feed's slot). Idempotent:
 * a claim committed by a slow worker and by the one that replayed it is deleted once.
 *
 * @param connection - the queue's connection
 * @param keys - the claim keys
 * @param id - the claim id
 * @param count - its item count
 * @returns the `commits` count after this commit
 */
export async function commitFeedClaim(connection: ConnectionHandle, keys: FeedClaimKeys, id: string, count: number): Promise<number> {
  const fields = [`${id}:n`, ...Array.from({ length: count }, (_, i) => `${id}:${i}`)];
  const replies = await connection.run(() => connection.redis.multi().zrem(keys.claims, id).hdel(keys.claimed, ...fields).hincrby(keys.claimed, 'commits', 1).exec());
  const failed = replies?.find(([error]) => error);
  if (!replies || failed) throw mapScriptError(failed?.[0] ?? new Error('MULTI aborted'), `start-URL feed claim ${keys.claims} commit`);
  return Number(replies[2]![1]);
}

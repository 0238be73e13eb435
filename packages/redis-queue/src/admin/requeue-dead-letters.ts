import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { encodeRequest, requestIdOf } from '../core/request-codec.js';
import { parseStoredRecord, storedFields } from '../core/record-format.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { REQUEUE_REQUEUED } from '../core/reply-codes.js';
import { RequeuePoliteness } from '../politeness/requeue-politeness.js';
import type { DeadLetter, RequeueDeadLettersOptions } from './admin-types.js';

/** Ids named in one "cannot requeue" error, at most. */
const IDS_SHOWN = 5;

/** One dead letter ready to go back: what to store, under which id, and on which host (polite queues). */
export interface DeadLetterRequeueStep {
  letter: DeadLetter;
  /** Request id to store it under. */
  id: string;
  /** The bytes to store ('' for the letter's own raw bytes). */
  bytes: Buffer | string;
  /** A feed letter's JSON item when repaired ('' for its raw bytes). */
  feedItem: string;
  /** Its host key on a polite queue ('' otherwise, and for feed letters). */
  host: string;
}

/** What {@link planDeadLetterRequeue} decided: the steps, and how many letters `repair` left dead. */
export interface DeadLetterRequeuePlan {
  steps: DeadLetterRequeueStep[];
  skipped: number;
  politeness: RequeuePoliteness;
}

/** The URL of a stored request's bytes, or why there is none. */
function urlOfRaw(raw: Buffer): { url: string } | { reason: string } {
  const parsed = parseStoredRecord(raw);
  if (!parsed.ok) return { reason: parsed.reason };
  return typeof parsed.fields.url === 'string' ? { url: parsed.fields.url } : { reason: 'no url' };
}

/**
 * Decides how each dead letter goes back, before anything is written: runs `repair`, encodes its result, and on a
 * polite queue computes each request's host from its URL with the workers' `hostKey` (the add path's function), so
 * a letter that cannot be placed stops the whole call with nothing written.
 *
 * @param scripts - the queue's (or one shard's) scripts
 * @param letters - the dead letters to requeue
 * @param repair - optional repair function (undefined: skip the letter)
 * @param hostKey - the workers' `politeness.hostKey` (default: the default host key)
 * @param checkRequest - extra check of a repaired request (a sharded queue: that it stays in the letter's shard)
 * @returns the steps
 * @throws {@link InvalidRequestError} when `repair` returns a request that cannot be stored, or on a polite queue when
 *   a letter's bytes hold no readable request (so its host is unknown) or its URL has no host key
 */
export async function planDeadLetterRequeue(
  scripts: QueueScripts,
  letters: DeadLetter[],
  repair: RequeueDeadLettersOptions['repair'],
  hostKey: ((url: string) => string) | undefined,
  checkRequest?: (request: { url: string; uniqueKey: string }) => void,
): Promise<DeadLetterRequeuePlan> {
  const politeness = await RequeuePoliteness.of(scripts, hostKey);
  const steps: DeadLetterRequeueStep[] = [];
  const unplaceable: string[] = [];
  let skipped = 0;
  for (const letter of letters) {
    let bytes: Buffer | string = '';
    // A feed item goes back to the feed as a JSON item (the feed's format), not as a queue record.
    let feedItem = '';
    let id = letter.id;
    let url: string | undefined;
    if (repair) {
      const repaired = repair(letter);
      if (!repaired) {
        skipped++;
        continue;
      }
      const encoded = encodeRequest(repaired);
      checkRequest?.(repaired);
      bytes = encoded.record;
      id = encoded.id;
      url = encoded.url;
      feedItem = JSON.stringify({ ...storedFields(encoded.record), id });
    }
    if (id.startsWith('feed-')) id = requestIdOf(id);
    let host = '';
    if (letter.source !== 'feed' && politeness.polite) {
      if (url === undefined) {
        const read = urlOfRaw(letter.raw);
        if ('reason' in read) {
          unplaceable.push(`${letter.id} (${read.reason})`);
          continue;
        }
        url = read.url;
      }
      host = politeness.hostOf(url);
    }
    steps.push({ letter, id, bytes, feedItem, host });
  }
  if (unplaceable.length > 0) {
    const shown = unplaceable.slice(0, IDS_SHOWN).join(', ') + (unplaceable.length > IDS_SHOWN ? `, and ${unplaceable.length - IDS_SHOWN} more` : '');
    throw new InvalidRequestError(
      `request queue "${scripts.queueName}" is polite and ${unplaceable.length} dead letter(s) hold no readable request, so their host is unknown: ${shown}. ` +
        'Pass repair to turn them into requests, or leave them out with ids (nothing was requeued)',
    );
  }
  return { steps, skipped, politeness };
}

/**
 * Puts planned dead letters back (RedisQueueAdmin.requeueDeadLetters on one queue or shard): queue entries into the
 * queue at the tail, in their host's queue on a polite queue (requeue-dead-letter.lua, one atomic step per letter),
 * feed items at the head of the feed list.
 *
 * @param scripts - the queue's (or one shard's) scripts
 * @param startUrlsKey - the feed list
 * @param plan - from {@link planDeadLetterRequeue}
 * @returns how many were requeued, and how many were skipped (repair returned undefined, or already gone)
 */
export async function runDeadLetterRequeue(
  scripts: QueueScripts,
  startUrlsKey: string,
  plan: DeadLetterRequeuePlan,
): Promise<{ requeued: number; skipped: number }> {
  const { connection } = scripts;
  let requeued = 0;
  let skipped = plan.skipped;
  for (const { letter, id, bytes, feedItem, host } of plan.steps) {
    if (letter.source === 'feed') {
      // The feed list is on another key (maybe another Cluster slot): push first, then forget the letter.
      await connection.run(() => connection.redis.lpush(startUrlsKey, feedItem === '' ? letter.raw : feedItem));
      await connection.run(() => connection.redis.hdel(scripts.keys.dead, letter.id));
      await connection.run(() => connection.redis.hdel(scripts.keys.deadInfo, letter.id));
      requeued++;
      continue;
    }
    const args = [letter.id, id, bytes, '0', ...plan.politeness.args([host])];
    const code = Number(await scripts.run('requeueDeadLetter', args, { extraKeys: [scripts.keys.stalls] }));
    if (code === REQUEUE_REQUEUED) requeued++;
    else skipped++;
  }
  return { requeued, skipped };
}

import { encodeRequest, requestIdOf } from '../queue/request-codec.js';
import { storedFields } from '../queue/record-format.js';
import type { QueueScripts } from '../queue/queue-scripts.js';
import { REQUEUED } from '../queue/reply-codes.js';
import type { DeadLetter, RequeueDeadLettersOptions } from './admin-types.js';

/**
 * Puts dead letters back (RedisQueueAdmin.requeueDeadLetters on one queue or shard): queue entries into the queue at
 * the tail (requeue-dead-letter.lua), feed items at the head of the feed list as JSON items (the feed's format).
 *
 * @param scripts - the queue's scripts (its keys and connection)
 * @param startUrlsKey - the feed list
 * @param letters - the dead letters to requeue
 * @param repair - optional repair function (undefined: skip the letter)
 * @returns how many were requeued, and how many were skipped (repair returned undefined, or already gone)
 * @throws {@link InvalidRequestError} when `repair` returns a request that cannot be stored
 */
export async function requeueDeadLetterEntries(
  scripts: QueueScripts,
  startUrlsKey: string,
  letters: DeadLetter[],
  repair: RequeueDeadLettersOptions['repair'],
): Promise<{ requeued: number; skipped: number }> {
  const { connection } = scripts;
  let requeued = 0;
  let skipped = 0;
  for (const letter of letters) {
    let bytes: Buffer | string = '';
    // A feed item goes back to the feed as a JSON item (the feed's format), not as a queue record.
    let feedItem = '';
    let id = letter.id;
    if (repair) {
      const repaired = repair(letter);
      if (!repaired) {
        skipped++;
        continue;
      }
      const encoded = encodeRequest(repaired);
      bytes = encoded.record;
      id = encoded.id;
      feedItem = JSON.stringify({ ...storedFields(encoded.record), id });
    }
    if (letter.source === 'feed') {
      // The feed list is on another key (maybe another Cluster slot): push first, then forget the letter.
      await connection.run(() => connection.redis.lpush(startUrlsKey, feedItem === '' ? letter.raw : feedItem));
      await connection.run(() => connection.redis.hdel(scripts.keys.dead, letter.id));
      await connection.run(() => connection.redis.hdel(scripts.keys.deadInfo, letter.id));
      requeued++;
      continue;
    }
    if (id.startsWith('feed-')) id = requestIdOf(id);
    const code = Number(await scripts.run('requeueDeadLetter', [letter.id, id, bytes, '0'], { extraKeys: [scripts.keys.stalls] }));
    if (code === REQUEUED) requeued++;
    else skipped++;
  }
  return { requeued, skipped };
}

import type { DeadLetter } from '../admin/admin-types.js';
import { parseStartUrlItem } from '../feed/parse-start-url.js';
import { decodeRequest } from '../core/request-codec.js';

/** A dead letter the CLI leaves dead, and why. */
export interface UnreadableLetter {
  id: string;
  reason: string;
}

/**
 * Splits the dead letters to requeue into those a worker can read once back (a queue entry that decodes into a valid
 * Crawlee request under its id, a feed item the feed parses) and the rest, which would only come back to the dead
 * letters (or worse, reach a worker): the CLI requeues without a `repair` function, so their bytes would go back
 * unchanged.
 *
 * @param letters - the queue's dead letters
 * @param ids - the ids asked for (`--id`), or undefined for all
 * @returns the ids to requeue, and the letters left dead with their reason (asked-for ids with no letter included)
 */
export function splitReadableDeadLetters(letters: DeadLetter[], ids: string[] | undefined): { readable: string[]; unreadable: UnreadableLetter[] } {
  const wanted = ids ? new Set(ids) : undefined;
  const chosen = letters.filter((l) => !wanted || wanted.has(l.id));
  const unreadable: UnreadableLetter[] = (ids ?? []).filter((id) => !chosen.some((l) => l.id === id)).map((id) => ({ id, reason: 'no such dead letter' }));
  const readable: string[] = [];
  for (const letter of chosen) {
    const reason = problemOf(letter);
    if (reason === undefined) readable.push(letter.id);
    else unreadable.push({ id: letter.id, reason });
  }
  return { readable, unreadable };
}

/** Why this letter cannot go back as it is, or undefined when it can. */
function problemOf(letter: DeadLetter): string | undefined {
  if (letter.source === 'takeover') return 'a scrapy-redis entry: requeue it with RedisQueueAdmin.requeueDeadLetters and a repair function';
  if (letter.source === 'feed') {
    const item = parseStartUrlItem(letter.raw, false);
    return item.kind === 'd' ? item.reason : undefined;
  }
  const decoded = decodeRequest(letter.raw, letter.id);
  return decoded.ok ? undefined : decoded.reason;
}

import type { Redis } from 'ioredis';
import { queueKeys } from 'crawlee-redis-queue';

/**
 * Explains a progress line with no page done and requests still locked: the locks of a stopped or killed worker
 * come back only when they expire, and until then nobody can take those requests. Reads the latest lock expiry
 * (a score of the queue's lock sorted set, Redis time in ms) and Redis's own clock.
 *
 * @param quietSecs - seconds without a page done
 * @returns the sentence, or undefined when nothing is locked
 */
export async function explainLockWait(
  redis: Redis,
  keyPrefix: string,
  queueName: string,
  locked: number,
  quietSecs: number,
): Promise<string | undefined> {
  if (locked <= 0) return undefined;
  const keys = queueKeys(keyPrefix, queueName);
  const [last, [secs, micros]] = await Promise.all([redis.zrange(keys.locks, '-1', '-1', 'WITHSCORES'), redis.time()]);
  const nowMs = Number(secs) * 1000 + Math.floor(Number(micros) / 1000);
  const lastExpiry = Number(last[1] ?? Number.NaN);
  const wait = Number.isFinite(lastExpiry) ? Math.max(0, Math.ceil((lastExpiry - nowMs) / 1000)) : undefined;
  return (
    `waiting for ${locked} locked request(s): no page done for ${quietSecs} s. Locks of a worker that was ` +
    'killed or lost its coordinator come back when they expire' +
    (wait === undefined ? '' : `, the last one in about ${wait} s`) +
    ' (--lock-secs; a worker that stops normally hands its locks back at once)'
  );
}

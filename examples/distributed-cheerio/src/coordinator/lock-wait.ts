import type { RedisClient } from '../redis/open-redis.js';
import { RedisQueueAdmin } from 'crawlee-redis-queue';

/**
 * Explains a progress line with no page done and requests still locked: the locks of a stopped or killed worker
 * come back only when they expire, and until then nobody can take those requests. Asks the queue admin when the
 * last lock expires (Redis time).
 *
 * @param quietSecs - seconds without a page done
 * @returns the sentence, or undefined when nothing is locked
 */
export async function explainLockWait(
  redis: RedisClient,
  keyPrefix: string,
  queueName: string,
  locked: number,
  quietSecs: number,
): Promise<string | undefined> {
  if (locked <= 0) return undefined;
  const admin = new RedisQueueAdmin({ redis, keyPrefix, name: queueName });
  const { lastExpiresInSecs } = await admin.lockExpiries();
  const wait = lastExpiresInSecs === undefined ? undefined : Math.ceil(lastExpiresInSecs);
  return (
    `waiting for ${locked} locked request(s): no page done for ${quietSecs} s. Locks of a worker that was ` +
    'killed come back one liveness window (5 s) after its last heartbeat' +
    (wait === undefined ? '' : `, the last one in about ${wait} s`) +
    ' (a worker that stops normally hands its locks back at once)'
  );
}

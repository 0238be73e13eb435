import type { RedisConnection } from './connection.js';
import { queueIndexKey } from './keys.js';

// The queue index (SET `<keyPrefix>:rq:index`, one member per queue name) is read and written here only: the
// cores add and remove their queue, and every list of queues (Crawlee's `requestQueues().list()`, the admin, the
// CLI's `ls`, the dashboard, the metrics) reads it through listQueueNames, with one rule for what it skips.

/** A member no queue can have: empty, or with a brace (a queue's hash tag is `{<keyPrefix>:rq:<name>}`, so a brace
 * in the name would break its keys); another program may have written it into the set. */
function isQueueName(name: string): boolean {
  return name.length > 0 && !/[{}]/.test(name);
}

/**
 * The names of every queue under a key prefix, sorted (SMEMBERS of the queue index: O(queues); not meant for a hot
 * path). Members no queue can have (empty, or with a brace) are skipped.
 *
 * @param redis - an ioredis `Redis` or `Cluster`
 * @param keyPrefix - the queues' key prefix (default `'crawlee'`)
 * @returns the queue names, sorted
 * @throws `ReplyError` (WRONGTYPE) when the index key holds another Redis type
 */
export async function listQueueNames(redis: RedisConnection, keyPrefix = 'crawlee'): Promise<string[]> {
  const names = await redis.smembers(queueIndexKey(keyPrefix));
  return names.filter(isQueueName).sort();
}

/**
 * Records a queue in the index (SADD; idempotent).
 * @param redis - the connection
 * @param keyPrefix - the key prefix
 * @param name - the queue name (its id)
 */
export async function indexQueue(redis: RedisConnection, keyPrefix: string, name: string): Promise<void> {
  await redis.sadd(queueIndexKey(keyPrefix), name);
}

/**
 * Removes a queue from the index (SREM; nothing happens when it is not there).
 * @param redis - the connection
 * @param keyPrefix - the key prefix
 * @param name - the queue name (its id)
 */
export async function unindexQueue(redis: RedisConnection, keyPrefix: string, name: string): Promise<void> {
  await redis.srem(queueIndexKey(keyPrefix), name);
}

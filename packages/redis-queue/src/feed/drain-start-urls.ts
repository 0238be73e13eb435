import { log } from 'crawlee';
import type { AddPath, FeedEntry } from '../queue/add-path.js';
import type { StartUrlFeedSettings } from '../queue/queue-context.js';
import type { QueueScripts } from '../queue/queue-scripts.js';
import { ADD_DEAD_LETTERED } from '../queue/reply-codes.js';
import { hashTagOf } from '@crawlee-distributed/redis-kit';
import { isCluster } from '../redis/connection.js';
import { parseStartUrlItem } from './parse-start-url.js';

const MAX_ATTEMPTS = 5;

/**
 * Moves one batch of the start-URL feed into the queue through the queue's one add path (same uniqueKey transform,
 * same enqueue filter, same script as `addRequests`). On one Redis (or a feed key sharing the queue's hash tag on a
 * Cluster) the items are read, parsed here, and committed by the add script, which checks the feed head is unchanged
 * and trims it in the same step: no item is lost when a worker dies, none is taken twice. On a Cluster with a feed
 * key on another slot, items are popped first and then committed (a worker killed in between loses that batch, as
 * scrapy-redis would).
 *
 * @param scripts - the queue's scripts (connection, keys)
 * @param addPath - the queue's add path
 * @param feed - feed settings
 * @returns the number of feed items consumed (added, duplicates, filtered and dead letters)
 */
export async function drainStartUrls(scripts: QueueScripts, addPath: AddPath, feed: StartUrlFeedSettings): Promise<number> {
  const { connection, keys, queueName } = scripts;
  const redis = connection.redis;
  const feedKey = feed.key(queueName);
  const atomic = !isCluster(redis) || hashTagOf(feedKey) === hashTagOf(keys.tag);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const raws = atomic
      ? await connection.run(() => redis.lrangeBuffer(feedKey, 0, feed.batchSize - 1))
      : ((await connection.run(() => redis.lpopBuffer(feedKey, feed.batchSize))) ?? []);
    if (raws.length === 0) return 0;
    const entries: FeedEntry[] = raws.map((raw) => {
      const item = parseStartUrlItem(raw, feed.alwaysEnqueue, addPath.uniqueKeyTransform);
      return item.kind === 'r' ? { raw, request: item.request } : { raw, reason: item.reason };
    });
    const codes = await addPath.addFeedBatch(entries, atomic ? { kind: 'check', feedKey } : { kind: 'popped' });
    if (codes === undefined) continue; // another worker took this batch first; read the new head
    const dead = codes.filter((c) => c === ADD_DEAD_LETTERED).length;
    if (dead > 0) log.warning(`crawlee-redis-queue: ${dead} start-URL item(s) of ${feedKey} were not valid; moved to the dead letters of queue "${queueName}"`);
    return raws.length;
  }
  return 0;
}

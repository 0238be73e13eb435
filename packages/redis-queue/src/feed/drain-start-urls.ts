import { log } from 'crawlee';
import type { RedisRequestQueueClient } from '../queue/redis-request-queue-client.js';
import type { StartUrlFeedSettings } from '../queue/queue-context.js';
import { hashTagOf } from '@crawlee-distributed/redis-kit';
import { isCluster } from '../redis/connection.js';
import { ADD_REPLY, FEED_REPLY } from '../redis/reply-codes.js';
import type { ScriptArg } from '../redis/scripts.js';
import { parseStartUrlItem } from './parse-start-url.js';

const MAX_ATTEMPTS = 5;

/**
 * Moves one batch of the start-URL feed into the queue. On one Redis (or a feed key sharing the queue's hash tag on
 * a Cluster) the items are read, parsed here, and committed by one script that checks the feed head is unchanged and
 * trims it in the same step: no item is lost when a worker dies, none is taken twice. On a Cluster with a feed key
 * on another slot, items are popped first and then committed (a worker killed in between loses that batch, as
 * scrapy-redis would).
 *
 * @param queue - the queue client
 * @param feed - feed settings
 * @param offset - clock offset argument
 * @returns the number of feed items consumed (added, duplicates and dead letters)
 */
export async function drainStartUrls(queue: RedisRequestQueueClient, feed: StartUrlFeedSettings, offset: string): Promise<number> {
  const { connection } = queue.context;
  const redis = connection.redis;
  const feedKey = feed.key(queue.id);
  const atomic = !isCluster(redis) || hashTagOf(feedKey) === hashTagOf(queue.keys.tag);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let raws: Buffer[];
    if (atomic) {
      raws = await connection.run(() => redis.lrangeBuffer(feedKey, 0, feed.batchSize - 1));
    } else {
      const popped = await connection.run(() => redis.lpopBuffer(feedKey, feed.batchSize));
      raws = popped ?? [];
    }
    if (raws.length === 0) return 0;
    const args: ScriptArg[] = [offset, atomic ? '1' : '0'];
    for (const raw of raws) {
      const item = parseStartUrlItem(raw, feed.alwaysEnqueue);
      if (item.kind === 'r') args.push(raw, 'r', item.id, item.json);
      else args.push(raw, 'd', '', item.reason);
    }
    const reply = await queue.runFeedScript(args, atomic ? feedKey : undefined);
    if (Number(reply) === FEED_REPLY.HEAD_CHANGED) continue; // another worker took this batch first; read the new head
    const codes = (reply as unknown[]).map(Number);
    const dead = codes.filter((c) => c === ADD_REPLY.DEAD_LETTERED).length;
    if (dead > 0) log.warning(`crawlee-redis-queue: ${dead} start-URL item(s) of ${feedKey} were not valid; moved to the dead letters of queue "${queue.id}"`);
    return raws.length;
  }
  return 0;
}

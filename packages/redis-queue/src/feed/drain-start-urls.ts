import { log } from 'crawlee';
import type { FeedAdder, FeedEntry } from './feed-entry.js';
import type { StartUrlFeedSettings } from './feed-options.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { ADD_DEAD_LETTERED, ADD_FEED_TAKEN } from '../core/reply-codes.js';
import { StartUrlFeedTypeError } from '../errors/start-url-feed-type-error.js';
import type { FeedTypeWarnings } from './feed-type-warnings.js';
import { feedKeyLayout, readFeedBatch, type FeedKeyLayout } from './feed-layout.js';
import { parseStartUrlItem } from './parse-start-url.js';
import { parseScrapyRedisItem } from './scrapy-redis-item.js';

const MAX_ATTEMPTS = 5;

/**
 * Moves one batch of the start-URL feed into the queue through the queue's one add path (same uniqueKey transform,
 * same enqueue filter, same script as `addRequests`). With several keys, the first key that is not empty is read
 * (priority order, as scrapy-redis' multi-key `redis_key`). Items are read (see `readFeedBatch` for each layout and
 * where a Cluster makes it non-atomic), parsed here in the configured format, and committed by the add script, which
 * removes them from the feed in the same step: none is lost when a worker dies, none is taken twice.
 *
 * @param scripts - the queue's scripts (connection, keys)
 * @param addPath - the queue's add path
 * @param feed - feed settings
 * @param warnings - where a key of a type the feed cannot read is reported (once per key and type) and skipped
 * @returns the number of feed items this worker consumed (added, duplicates, filtered and dead letters)
 */
export async function drainStartUrls(scripts: QueueScripts, addPath: FeedAdder, feed: StartUrlFeedSettings, warnings: FeedTypeWarnings): Promise<number> {
  for (const feedKey of feed.keys(scripts.queueName)) {
    try {
      const consumed = await drainKey(scripts, addPath, feed, feedKey);
      warnings.readable(feedKey);
      if (consumed > 0) return consumed;
    } catch (error) {
      // The key can also change type between the read and the add script (WRONGTYPE from the script).
      if (error instanceof StartUrlFeedTypeError) warnings.skip(error);
      else if (error instanceof Error && /WRONGTYPE/.test(error.message)) {
        const type = String(await scripts.connection.run(() => scripts.connection.redis.type(feedKey)));
        warnings.skip(new StartUrlFeedTypeError(feedKey, type, 'a list, a set or a sorted set', { cause: error }));
      } else throw error;
    }
  }
  return 0;
}

/** Drains one batch of one feed key. @returns items consumed @throws {@link StartUrlFeedTypeError} for a wrong type */
async function drainKey(scripts: QueueScripts, addPath: FeedAdder, feed: StartUrlFeedSettings, feedKey: string): Promise<number> {
  const { connection, keys, queueName } = scripts;
  const parse = feed.format === 'crawlee' ? parseStartUrlItem : parseScrapyRedisItem;
  const layout: FeedKeyLayout = feed.layout === 'auto' ? await feedKeyLayout(connection, feedKey, 'auto') : feed.layout;
  if (layout === 'none') return 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { raws, step } = await readFeedBatch(connection, keys.tag, feedKey, layout, feed.batchSize);
    if (raws.length === 0) break;
    const entries: FeedEntry[] = raws.map((raw) => {
      const item = parse(raw, feed.alwaysEnqueue, addPath.uniqueKeyTransform);
      return item.kind === 'r' ? { raw, request: item.request } : { raw, reason: item.reason };
    });
    const codes = await addPath.addFeedBatch(entries, step);
    if (codes === undefined) continue; // another worker took this list head first; read the new head
    const consumed = codes.filter((c) => c !== ADD_FEED_TAKEN).length;
    if (consumed === 0) continue; // another worker took every member read; read again
    const dead = codes.filter((c) => c === ADD_DEAD_LETTERED).length;
    if (dead > 0) log.warning(`crawlee-redis-queue: ${dead} start-URL item(s) of ${feedKey} were not valid; moved to the dead letters of queue "${queueName}"`);
    return consumed;
  }
  return 0;
}

/**
 * Checks every feed key's type once (when the queue is opened), so a wrong key is reported before the crawl starts.
 *
 * @param scripts - the queue's scripts
 * @param feed - feed settings
 * @throws {@link StartUrlFeedTypeError} for a key of another type
 */
export async function checkStartUrlFeed(scripts: QueueScripts, feed: StartUrlFeedSettings): Promise<void> {
  for (const key of feed.keys(scripts.queueName)) await feedKeyLayout(scripts.connection, key, feed.layout);
}

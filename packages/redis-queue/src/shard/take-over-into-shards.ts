import type { QueueScripts } from '../queue/queue-scripts.js';
import { ADD_ADDED, ADD_DEAD_LETTERED, TAKEOVER_GONE } from '../queue/reply-codes.js';
import { encodeRequest } from '../queue/request-codec.js';
import type { ScriptArg } from '../redis/scripts.js';
import { readScrapyRequest } from '../takeover/scrapy-request-dict.js';
import { checkSourceType, deadLetterId, readBatch, removeFromSource } from '../takeover/take-over-scrapy-requests.js';
import { checkTakeoverOptions, type TakeOverScrapyRequestsOptions, type TakeOverScrapyRequestsResult } from '../takeover/takeover-options.js';
import { takeoverUniqueKey, toCrawleeRequest } from '../takeover/to-crawlee-request.js';
import { shardOf, type ShardBy } from './shard-of.js';

/** Unreadable entries have no uniqueKey: their dead letters go to shard 0 (an operator lists every shard's). */
const DEAD_LETTER_SHARD = 0;

/**
 * Moves a scrapy-redis frontier into a sharded queue: each request into the shard the shard rule gives for its
 * uniqueKey, batch by batch in Scrapy's pop order (so each shard keeps that order at its tail). A batch's requests
 * are in several shards (several hash tags), so a batch cannot be one script with Scrapy's key; it takes the path
 * the unsharded takeover takes for a Scrapy key on another Cluster slot: every shard stores its part first
 * (`take-over-scrapy-batch.lua`, dedup by uniqueKey, the shards in parallel), then the entries are removed from
 * Scrapy's key. A takeover killed in between leaves entries that a re-run finds already present in their shards and
 * only removes, so killed at any moment and run again it moves every request exactly once. Dead letters are named
 * after the entry's bytes, so a re-run writes each once. As for an unsharded queue the enqueue filter is not
 * consulted (Scrapy's dupefilter already holds these fingerprints). Stop the Scrapy fleet first: a request a Scrapy
 * worker pops between our read and our removal is fetched by both fleets.
 *
 * @param shards - the scripts of each shard (shard order)
 * @param shardBy - the queue's shard rule
 * @param input - see {@link TakeOverScrapyRequestsOptions}
 * @returns the totals
 * @throws {@link InvalidOptionsError} for a bad option, or a key of the wrong Redis type (nothing moved)
 */
export async function takeOverIntoShards(shards: readonly QueueScripts[], shardBy: ShardBy, input: TakeOverScrapyRequestsOptions): Promise<TakeOverScrapyRequestsResult> {
  const options = checkTakeoverOptions(input);
  const { key, queueClass, batchSize } = options;
  const first = shards[0]!;
  await checkSourceType(first, key, queueClass);
  const result: TakeOverScrapyRequestsResult = { moved: 0, alreadyPresent: 0, deadLettered: 0, gone: 0, batches: 0 };
  for (;;) {
    const raws = await readBatch(first, key, queueClass, batchSize);
    if (raws.length === 0) return result;
    const groups = new Map<number, ScriptArg[]>();
    for (const raw of raws) {
      const [shard, args] = entryOf(raw, options, shards.length, shardBy);
      const group = groups.get(shard);
      if (group) group.push(...args);
      else groups.set(shard, [...args]);
    }
    const replies = await Promise.all(
      [...groups].map(([s, entries]) => shards[s]!.run('takeOverScrapyBatch', ['none', shards[s]!.offset(), ...entries])),
    );
    await removeFromSource(first, key, queueClass, raws);
    for (const code of replies.flatMap((r) => (r as unknown[]).map(Number))) {
      if (code === ADD_ADDED) result.moved++;
      else if (code === ADD_DEAD_LETTERED) result.deadLettered++;
      else if (code === TAKEOVER_GONE) result.gone++;
      else result.alreadyPresent++;
    }
    result.batches++;
    options.onProgress?.({ ...result });
    if (options.pauseMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, options.pauseMs));
  }
}

/** One entry's shard and its quadruple for the batch script: a request in its uniqueKey's shard, or a dead letter. */
function entryOf(raw: Buffer, options: ReturnType<typeof checkTakeoverOptions>, shards: number, shardBy: ShardBy): [number, ScriptArg[]] {
  try {
    const request = toCrawleeRequest(readScrapyRequest(raw, options.serializer));
    request.uniqueKey = takeoverUniqueKey(request, raw, options.uniqueKey);
    const encoded = encodeRequest(request);
    return [shardOf(encoded.uniqueKey, shards, shardBy), [raw, 'r', encoded.id, encoded.record]];
  } catch (error) {
    return [DEAD_LETTER_SHARD, [raw, 'd', deadLetterId(raw), `scrapy-redis ${options.serializer} entry unreadable: ${(error as Error).message}`]];
  }
}

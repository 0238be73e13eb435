import type { QueueScripts } from '../core/queue-scripts.js';
import { ADD_ADDED, ADD_DEAD_LETTERED, TAKEOVER_GONE } from '../core/reply-codes.js';
import { encodeRequest } from '../core/request-codec.js';
import type { ScriptArg } from '../core/scripts.js';
import { readScrapyRequest } from '../takeover/scrapy-request-dict.js';
import { checkSourceType, deadLetterId, readBatch, removeFromSource } from '../takeover/take-over-scrapy-requests.js';
import { checkTakeoverOptions, type TakeOverScrapyRequestsOptions, type TakeOverScrapyRequestsResult } from '../takeover/takeover-options.js';
import { takeoverUniqueKey, toCrawleeRequest } from '../takeover/to-crawlee-request.js';
import { RequeuePoliteness } from '../politeness/requeue-politeness.js';
import { shardOf, type ShardBy } from './shard-of.js';
import { checkPoliteShard } from './shard-politeness.js';

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
 * worker pops between our read and our removal is fetched by both fleets. On a polite sharded queue each request
 * goes into its host's queue in its host's shard (the host from its URL with `hostKey`, as a worker's add computes
 * it); a request whose uniqueKey is not a URL of its own host becomes a dead letter, as on the add path.
 *
 * @param shards - the scripts of each shard (shard order)
 * @param shardBy - the queue's shard rule
 * @param input - see {@link TakeOverScrapyRequestsOptions}
 * @param hostKey - the workers' `politeness.hostKey` (default: the default host key)
 * @returns the totals
 * @throws {@link InvalidOptionsError} for a bad option, or a key of the wrong Redis type (nothing moved)
 */
export async function takeOverIntoShards(
  shards: readonly QueueScripts[],
  shardBy: ShardBy,
  input: TakeOverScrapyRequestsOptions,
  hostKey?: (url: string) => string,
): Promise<TakeOverScrapyRequestsResult> {
  const options = checkTakeoverOptions(input);
  const { key, queueClass, batchSize } = options;
  const first = shards[0]!;
  await checkSourceType(first, key, queueClass);
  const politeness = await RequeuePoliteness.of(first, hostKey); // every shard has the queue's politeness
  const result: TakeOverScrapyRequestsResult = { moved: 0, alreadyPresent: 0, deadLettered: 0, gone: 0, batches: 0 };
  for (;;) {
    const raws = await readBatch(first, key, queueClass, batchSize);
    if (raws.length === 0) return result;
    const groups = new Map<number, { args: ScriptArg[]; hosts: string[] }>();
    for (const raw of raws) {
      const [shard, args, host] = entryOf(raw, options, shards.length, shardBy, politeness);
      const group = groups.get(shard);
      if (group) {
        group.args.push(...args);
        group.hosts.push(host);
      } else groups.set(shard, { args: [...args], hosts: [host] });
    }
    const replies = await Promise.all(
      [...groups].map(([s, { args, hosts }]) => shards[s]!.run('takeOverScrapyBatch', ['none', shards[s]!.offset(), ...args, ...politeness.args(hosts)])),
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

/** One entry's shard, its quadruple for the batch script and its host ('' off a polite queue, and for a dead
 * letter): a request in its uniqueKey's shard, or a dead letter. */
function entryOf(
  raw: Buffer,
  options: ReturnType<typeof checkTakeoverOptions>,
  shards: number,
  shardBy: ShardBy,
  politeness: RequeuePoliteness,
): [number, ScriptArg[], string] {
  let request;
  try {
    request = toCrawleeRequest(readScrapyRequest(raw, options.serializer));
    request.uniqueKey = takeoverUniqueKey(request, raw, options.uniqueKey);
  } catch (error) {
    return [DEAD_LETTER_SHARD, [raw, 'd', deadLetterId(raw), `scrapy-redis ${options.serializer} entry unreadable: ${(error as Error).message}`], ''];
  }
  try {
    const encoded = encodeRequest(request);
    let host = '';
    if (politeness.polite) {
      checkPoliteShard(request);
      host = politeness.hostOf(encoded.url);
    }
    return [shardOf(encoded.uniqueKey, shards, shardBy), [raw, 'r', encoded.id, encoded.record], host];
  } catch (error) {
    return [DEAD_LETTER_SHARD, [raw, 'd', deadLetterId(raw), `scrapy-redis ${options.serializer} entry cannot be stored: ${(error as Error).message}`], ''];
  }
}

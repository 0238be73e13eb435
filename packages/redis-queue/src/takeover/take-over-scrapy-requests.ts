import { createHash } from 'node:crypto';
import { slotOf } from '@crawlee-distributed/redis-kit';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { TakeoverSourceChangedError } from '../errors/takeover-source-changed-error.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { ADD_ADDED, ADD_DEAD_LETTERED, TAKEOVER_GONE, TAKEOVER_SOURCE_CHANGED } from '../core/reply-codes.js';
import { encodeRequest } from '../core/request-codec.js';
import { isCluster } from '../core/connection.js';
import { RequeuePoliteness } from '../politeness/requeue-politeness.js';
import type { ScriptArg } from '../core/scripts.js';
import { readScrapyRequest } from './scrapy-request-dict.js';
import { takeoverUniqueKey, toCrawleeRequest } from './to-crawlee-request.js';
import { checkTakeoverOptions, type ScrapyQueueClass, type TakeOverScrapyRequestsOptions, type TakeOverScrapyRequestsResult } from './takeover-options.js';

const MAX_CHANGED_ATTEMPTS = 10;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const REDIS_TYPE: Record<ScrapyQueueClass, string> = { priority: 'zset', fifo: 'list', lifo: 'list' };
const SOURCE_STEP: Record<ScrapyQueueClass, string> = { priority: 'zset', fifo: 'fifo', lifo: 'lifo' };

/** Reads the next batch in Scrapy's pop order (scrapy_redis/queue.py): lowest score first, the right end, the left end. */
export async function readBatch(scripts: QueueScripts, key: string, queueClass: ScrapyQueueClass, n: number): Promise<Buffer[]> {
  const redis = scripts.connection.redis;
  if (queueClass === 'priority') return scripts.connection.run(() => redis.zrangeBuffer(key, '0', String(n - 1)));
  if (queueClass === 'lifo') return scripts.connection.run(() => redis.lrangeBuffer(key, 0, n - 1));
  return (await scripts.connection.run(() => redis.lrangeBuffer(key, -n, -1))).reverse();
}

/**
 * Checks that the frontier key is the Redis type its queue class writes (or missing).
 * @throws {@link InvalidOptionsError} naming the queueClass to use
 */
export async function checkSourceType(scripts: QueueScripts, key: string, queueClass: ScrapyQueueClass): Promise<void> {
  const type = await scripts.connection.run(() => scripts.connection.redis.type(key));
  if (type !== 'none' && type !== REDIS_TYPE[queueClass]) {
    const hint = type === 'zset' ? "'priority'" : type === 'list' ? "'fifo' or 'lifo'" : 'none: it is not a scrapy-redis frontier';
    throw new InvalidOptionsError(`${key} is a Redis ${type}, not a ${REDIS_TYPE[queueClass]}: queueClass ${JSON.stringify(queueClass)} does not match (use ${hint})`);
  }
}

/** The dead-letter id of an unreadable entry: from its bytes, so a batch run twice writes one letter. */
export function deadLetterId(raw: Buffer): string {
  return `takeover-${createHash('sha1').update(raw).digest('hex').slice(0, 16)}`;
}

/** One entry as the batch script wants it: a request (id + JSON) or a dead letter (reason), and its host on a polite
 * queue ('' otherwise; an entry whose URL has no host key is a dead letter, as one whose URL cannot be read). */
function entryArgs(raw: Buffer, options: ReturnType<typeof checkTakeoverOptions>, politeness: RequeuePoliteness): { args: ScriptArg[]; host: string } {
  try {
    const request = toCrawleeRequest(readScrapyRequest(raw, options.serializer));
    request.uniqueKey = takeoverUniqueKey(request, raw, options.uniqueKey);
    const encoded = encodeRequest(request);
    return { args: [raw, 'r', encoded.id, encoded.record], host: politeness.hostOf(encoded.url) };
  } catch (error) {
    return { args: [raw, 'd', deadLetterId(raw), `scrapy-redis ${options.serializer} entry unreadable: ${(error as Error).message}`], host: '' };
  }
}

/**
 * Moves a scrapy-redis frontier (`<spider>:requests`) into a request queue, batch by batch, in Scrapy's pop order
 * (highest priority first for `PriorityQueue`), appending at the queue's tail. With the frontier on the same Redis
 * (or the same Cluster slot) each batch is one script that removes the entries from Scrapy's key and stores them
 * (`take-over-scrapy-batch.lua`); on another Cluster slot, the requests are stored first and then removed from
 * Scrapy's key, so a crash in between leaves entries that a re-run finds already present and only removes. Either
 * way a takeover killed at any moment and run again loses nothing and stores nothing twice. On a polite queue each
 * request goes into its host's queue (the host from its URL with `hostKey`, as a worker's add computes it).
 *
 * @param scripts - the queue's scripts
 * @param input - see {@link TakeOverScrapyRequestsOptions}
 * @param hostKey - the workers' `politeness.hostKey` (default: the default host key)
 * @returns the totals
 * @throws {@link InvalidOptionsError} for a bad option, or a key of the wrong Redis type (nothing moved)
 * @throws {@link TakeoverSourceChangedError} when a list frontier keeps changing (Scrapy workers still running)
 */
export async function takeOverScrapyRequests(
  scripts: QueueScripts,
  input: TakeOverScrapyRequestsOptions,
  hostKey?: (url: string) => string,
): Promise<TakeOverScrapyRequestsResult> {
  const options = checkTakeoverOptions(input);
  const { key, queueClass, batchSize } = options;
  const redis = scripts.connection.redis;
  await checkSourceType(scripts, key, queueClass);
  const atomic = !isCluster(redis) || slotOf(key) === slotOf(scripts.keys.tag);
  const politeness = await RequeuePoliteness.of(scripts, hostKey);
  const result: TakeOverScrapyRequestsResult = { moved: 0, alreadyPresent: 0, deadLettered: 0, gone: 0, batches: 0 };
  let changed = 0;
  for (;;) {
    const raws = await readBatch(scripts, key, queueClass, batchSize);
    if (raws.length === 0) return result;
    const args: ScriptArg[] = [atomic ? SOURCE_STEP[queueClass] : 'none', scripts.offset()];
    const hosts: string[] = [];
    for (const raw of raws) {
      const entry = entryArgs(raw, options, politeness);
      args.push(...entry.args);
      hosts.push(entry.host);
    }
    args.push(...politeness.args(hosts));
    const reply = await scripts.run('takeOverScrapyBatch', args, { extraKeys: atomic ? [key] : [] });
    if (!Array.isArray(reply)) {
      if (Number(reply) !== TAKEOVER_SOURCE_CHANGED) throw scripts.mapError(new Error(`unexpected reply ${String(reply)}`), 'takeOverScrapyBatch');
      if (++changed >= MAX_CHANGED_ATTEMPTS) {
        throw new TakeoverSourceChangedError(
          `${key} changed under the takeover ${changed} times in a row: Scrapy workers are still using it. Stop the Scrapy fleet and run the takeover again (what was moved stays moved)`,
        );
      }
      await sleep(50);
      continue;
    }
    changed = 0;
    if (!atomic) await removeFromSource(scripts, key, queueClass, raws);
    for (const code of (reply as unknown[]).map(Number)) {
      if (code === ADD_ADDED) result.moved++;
      else if (code === ADD_DEAD_LETTERED) result.deadLettered++;
      else if (code === TAKEOVER_GONE) result.gone++;
      else result.alreadyPresent++;
    }
    result.batches++;
    options.onProgress?.({ ...result });
    if (options.pauseMs > 0) await sleep(options.pauseMs);
  }
}

/** Second step on another Cluster slot (or with the requests in several shards): the entries are stored; now take
 * them off Scrapy's key. */
export async function removeFromSource(scripts: QueueScripts, key: string, queueClass: ScrapyQueueClass, raws: Buffer[]): Promise<void> {
  const redis = scripts.connection.redis;
  if (queueClass === 'priority') {
    await scripts.connection.run(() => redis.zrem(key, ...raws));
    return;
  }
  // FifoQueue pops from the right, LifoQueue from the left: remove each entry's occurrence nearest that end.
  const count = queueClass === 'fifo' ? -1 : 1;
  for (const raw of raws) await scripts.connection.run(() => redis.lrem(key, count, raw));
}

import { parseStartUrlItem } from '../../feed/parse-start-url.js';
import { decodeRequest } from '../../core/request-codec.js';
import { RedisStorageClient } from '../../storage/redis-storage-client.js';
import type { RedisRequestQueueClient } from '../../storage/redis-request-queue-client.js';
import type { RequestSchema } from '../../core/crawlee-types.js';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';
import { keyValues } from '../format.js';
import { readLines } from '../read-lines.js';
import { assertQueueName } from '../../core/queue-name.js';
import { readShardLayout } from '../../shard/shard-layout.js';

/**
 * `crawlee-redis seed <queue> [file|-]`: adds start URLs (the start-URL feed formats), deduplicated by uniqueKey.
 * It holds a producer lease from before it reads its input until the requests are added, so workers already running
 * on the queue do not finish while a slow pipe (a sitemap reader) is still producing; `--lease-secs` is how long
 * after a killed seed they may finish.
 */
export const seedCommand = defineCliCommand(
  'seed',
  (c) =>
    c
      .description('add requests: one URL, JSON string or JSON object ({ url, method, headers, payload|body, userData|meta, uniqueKey }) per line')
      .argument('<queue>', 'queue name (created when missing)')
      .argument('[file]', 'input file, or - for stdin', '-')
      .option('--forefront', 'put the requests at the head of the queue')
      .option('--skip-invalid', 'skip lines that are not requests (default: reject the whole input, nothing added)')
      .option('--shards <n>', 'for a new queue: its shard count (1 to 256; see "One crawl on a Redis Cluster"); an existing queue keeps the recorded one')
      .option('--lease-secs <n>', 'producer lease kept while seeding, in seconds (1 to 3600): no worker finishes meanwhile', '30'),
  async (ctx, [name, file], options) => {
    const leaseSecs = Number(options.leaseSecs);
    if (!Number.isFinite(leaseSecs) || leaseSecs < 1 || leaseSecs > 3600) {
      throw new CliUsageError(`--lease-secs must be a number of seconds from 1 to 3600 (got ${String(options.leaseSecs)})`);
    }
    // The library's rule: a queue seeded here is one workers can open (not 'default', no stray whitespace).
    assertQueueName(name as string);
    await ctx.admin(name as string, false); // validates the name
    const redis = await ctx.redis();
    // The queue's recorded layout (a sharded queue is seeded shard by shard); --shards only for a new queue, and a
    // different count for an existing one is refused by the storage client (ShardLayoutMismatchError).
    const recorded = await readShardLayout(redis, ctx.keyPrefix, name as string);
    const shards = options.shards === undefined ? recorded.shards : Number(options.shards);
    if (!Number.isInteger(shards) || shards < 1 || shards > 256) throw new CliUsageError(`--shards must be a whole number from 1 to 256 (got ${String(options.shards)})`);
    const storage = new RedisStorageClient({ redis, keyPrefix: ctx.keyPrefix, workerStats: false, shards, shardBy: recorded.shardBy });
    const client = storage.requestQueue(name as string, { clientKey: 'crawlee-redis-seed' }) as RedisRequestQueueClient;
    const lease = await client.holdOpen({ leaseSecs, id: `crawlee-redis-seed:${process.pid}` });
    try {
      const lines = await readLines(file as string, ctx.io.stdin);
      const requests: RequestSchema[] = [];
      const invalid: Array<{ line: number; reason: string }> = [];
      lines.forEach((text, i) => {
        if (text.trim() === '') return;
        const parsed = parseStartUrlItem(Buffer.from(text.trim(), 'utf8'), false);
        const decoded = parsed.kind === 'r' ? decodeRequest(parsed.request.record, parsed.request.id) : undefined;
        if (decoded?.ok) requests.push(decoded.request);
        else invalid.push({ line: i + 1, reason: parsed.kind === 'r' ? (decoded as { reason: string }).reason : parsed.reason });
      });
      if (invalid.length > 0 && !options.skipInvalid) {
        const shown = invalid.slice(0, 5).map((e) => `  line ${e.line}: ${e.reason}`).join('\n');
        throw new CliUsageError(`${invalid.length} line(s) are not requests; nothing was added (pass --skip-invalid to add the others):\n${shown}`);
      }
      // Created only once the input is accepted: a rejected input writes nothing (the lease is gone on release).
      await storage.requestQueues().getOrCreate(name as string);
      const { processedRequests } = await client.batchAddRequests(requests, { forefront: options.forefront === true });
      const added = processedRequests.filter((r) => !r.wasAlreadyPresent).length;
      const result = { queue: name, read: requests.length + invalid.length, added, alreadyPresent: requests.length - added, invalid: invalid.length };
      if (ctx.json) return ctx.printJson({ ...result, invalidLines: invalid });
      ctx.print(keyValues([['queue', name as string], ['read', result.read], ['added', added], ['already present', result.alreadyPresent], ['invalid (skipped)', invalid.length]]));
    } finally {
      await lease.release();
    }
  },
);

import { InvalidArgumentError } from 'commander';
import { RedisStorageClient } from '../../storage/redis-storage-client.js';
import type { ScrapyTakeoverRequest } from '../../takeover/index.js';
import { defineCliCommand } from '../define-command.js';
import { CliUsageError } from '../errors/cli-usage-error.js';
import { TakeoverSourceMissingError } from '../errors/takeover-source-missing-error.js';
import { keyValues } from '../format.js';

const intOption = (min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
  return n;
};

/**
 * The uniqueKey function of `--fingerprint`: crawlee-scrapy-fingerprint's transform, loaded only when asked for
 * (crawlee-redis-queue does not depend on it; install it beside the CLI).
 */
async function fingerprintUniqueKey(recipe: string, scrapyRequest: string | undefined): Promise<(r: ScrapyTakeoverRequest) => string> {
  const name = 'crawlee-scrapy-fingerprint';
  let module: { fingerprintTransform: (options: object) => (r: ScrapyTakeoverRequest) => { uniqueKey: string } };
  try {
    module = (await import(name)) as typeof module;
  } catch {
    throw new CliUsageError(`--fingerprint needs the package ${name}: npm install ${name}`);
  }
  const transform = module.fingerprintTransform(scrapyRequest ? { recipe, scrapyRequest } : { recipe });
  return (request) => transform({ ...request, uniqueKey: undefined }).uniqueKey;
}

/**
 * `crawlee-redis takeover <queue> --from <spider>:requests`: moves a scrapy-redis frontier into the queue (see
 * `RedisQueueAdmin.takeOverScrapyRequests`). Stop the Scrapy fleet first. Safe to kill and run again.
 */
export const takeoverCommand = defineCliCommand(
  'takeover',
  (c) =>
    c
      .description("move a scrapy-redis frontier (<spider>:requests) into the queue; stop the Scrapy fleet first, safe to re-run")
      .argument('<queue>', 'queue name (created when missing)')
      .requiredOption('--from <key>', 'the scrapy-redis frontier key (SCHEDULER_QUEUE_KEY), e.g. myspider:requests')
      .option('--serializer <name>', "SCHEDULER_SERIALIZER: 'pickle' (scrapy-redis default) or 'json'", 'pickle')
      .option('--queue-class <name>', "SCHEDULER_QUEUE_CLASS: 'priority' (PriorityQueue, default), 'fifo' or 'lifo'", 'priority')
      .option('--batch-size <n>', 'entries per atomic step (1-10000)', intOption(1, 10_000), 500)
      .option('--pause-ms <ms>', 'wait between batches (0-60000)', intOption(0, 60_000), 0)
      .option('--fingerprint <recipe>', "uniqueKey = Scrapy fingerprint (crawlee-scrapy-fingerprint recipe: 'scrapy', 'scrapy-2.6', 'scrapy-redis'); default Crawlee's uniqueKey")
      .option('--scrapy-request <range>', "with --fingerprint: the Scrapy the fleet ran, e.g. '<=2.12'")
      .option('--progress', 'print a line after each batch'),
  async (ctx, [name], options) => {
    const serializer = options.serializer as string;
    const queueClass = options.queueClass as string;
    if (serializer !== 'pickle' && serializer !== 'json') throw new CliUsageError(`--serializer must be pickle or json (got ${serializer})`);
    if (!['priority', 'fifo', 'lifo'].includes(queueClass)) throw new CliUsageError(`--queue-class must be priority, fifo or lifo (got ${queueClass})`);
    if (options.scrapyRequest && !options.fingerprint) throw new CliUsageError('--scrapy-request needs --fingerprint');
    const uniqueKey = options.fingerprint ? await fingerprintUniqueKey(options.fingerprint as string, options.scrapyRequest as string | undefined) : undefined;
    const admin = await ctx.admin(name as string, false);
    // Checked before the queue is created: a mistyped key must not leave an empty queue behind.
    const redis = await ctx.redis();
    if ((await redis.exists(options.from as string)) === 0) throw new TakeoverSourceMissingError(options.from as string);
    const storage = new RedisStorageClient({ redis, keyPrefix: ctx.keyPrefix, workerStats: false });
    await storage.requestQueues().getOrCreate(name as string);
    const result = await admin.takeOverScrapyRequests({
      key: options.from as string,
      serializer,
      queueClass: queueClass as 'priority' | 'fifo' | 'lifo',
      batchSize: options.batchSize as number,
      pauseMs: options.pauseMs as number,
      uniqueKey,
      onProgress: options.progress ? (p) => ctx.print(`batch ${p.batches}: moved ${p.moved}, already present ${p.alreadyPresent}, dead letters ${p.deadLettered}`) : undefined,
    });
    if (ctx.json) return ctx.printJson({ queue: name, from: options.from, ...result });
    ctx.print(
      keyValues([
        ['queue', name as string],
        ['from', options.from as string],
        ['moved', result.moved],
        ['already present', result.alreadyPresent],
        ['dead letters', result.deadLettered],
        ['popped by Scrapy meanwhile', result.gone],
        ['batches', result.batches],
      ]),
    );
  },
);

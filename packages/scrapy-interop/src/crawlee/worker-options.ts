import { Command, InvalidArgumentError } from 'commander';

/** What one Crawlee worker process of the harness is told on its command line. */
export interface WorkerOptions {
  redisUrl: string;
  /** The crawlee-redis-queue queue name (the Crawlee fleet's frontier). */
  queue: string;
  keyPrefix: string;
  /** The scrapy-redis spider whose `<spider>:dupefilter` set both fleets share. */
  spider: string;
  /** Worker id, in the User-Agent `crawlee-fleet/<worker>`. */
  worker: string;
  /** Start URLs added by this worker. */
  startUrl: string[];
  /** A scrapy-redis start-URL list to drain (e.g. `<spider>:start_urls`, shared with the Scrapy fleet). */
  feedKey?: string;
  feedBatch: number;
  concurrency: number;
  /** Seconds without work (and a finished queue) before the worker exits. */
  idleSecs: number;
}

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};

/** Parses the worker's arguments (commander); exits with a usage message on bad input. */
export function parseWorkerOptions(argv: string[]): WorkerOptions {
  const program = new Command()
    .name('crawlee-worker')
    .description(
      'One Crawlee worker of the interop harness: shared Redis queue, scrapy-redis dupefilter, Scrapy fingerprints.',
    )
    .requiredOption('--redis-url <url>', 'Redis both fleets use')
    .requiredOption('--queue <name>', 'crawlee-redis-queue queue name')
    .option('--key-prefix <prefix>', 'queue key prefix', 'crawlee')
    .requiredOption('--spider <name>', 'scrapy-redis spider name: the dupefilter is <spider>:dupefilter')
    .option('--worker <id>', 'worker id (User-Agent crawlee-fleet/<id>)', '0')
    .option(
      '--start-url <url>',
      'start URL (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--feed-key <key>', 'scrapy-redis start-URL list to drain')
    .option('--feed-batch <n>', 'start URLs per feed batch', positiveInt, 2)
    .option('--concurrency <n>', 'max concurrent requests', positiveInt, 4)
    .option('--idle-secs <n>', 'exit after this many idle seconds', positiveInt, 3)
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
  program.parse(argv);
  return program.opts<WorkerOptions>();
}

#!/usr/bin/env node
/**
 * `npm start` (root) / `distributed-cheerio`: a distributed crawl of a static site by N worker processes on one Redis.
 * Bad input exits with code 2 before anything is started or written.
 */
import { Command, CommanderError } from 'commander';
import { log } from 'crawlee';
import { runCrawl } from './coordinator/run.js';
import { DistributedCheerioError } from './errors/distributed-cheerio-error.js';
import { QueueFinishedError } from './errors/queue-finished-error.js';
import { UsageError } from './errors/usage-error.js';
import { assertOutputPathsWritable } from './check-output-paths.js';
import { lockOutputs, type OutputLock } from './coordinator/output-lock.js';
import { installLogFilter } from './log-filter.js';
import { explainedRedisError } from './redis/explained-redis-error.js';
import { maskInText } from './mask-credentials.js';
import { POSTGRES_DOCS_DIR, resolveOptions, type RawOptions } from './options.js';

const EXIT_USAGE = 2;
/** Exit codes of a run stopped by a signal, as a shell reports them (128 + signal number). */
const EXIT_SIGNAL: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

let outputLock: OutputLock | undefined;

function program(): Command {
  return new Command('distributed-cheerio')
    .description(
      'Crawl a site with N CheerioCrawler worker processes sharing one Redis request queue, Scrapy fingerprints and a ' +
        `Redis Bloom filter; print a summary and write every page once as JSON Lines.\nDefault site: ${POSTGRES_DOCS_DIR} ` +
        '(apt-get install postgresql-doc-15), or a generated demo site when it is not installed.',
    )
    .option('--workers <n>', 'worker processes (1-64)', '2')
    .option('--site <dir>', 'static folder to serve on a loopback port and crawl (default: the PostgreSQL docs)')
    .option('--start-url <url>', 'crawl this site instead of a served folder')
    .option('--demo', 'crawl the generated demo site (query variants, fragments, tracking parameters, repeated links)')
    .option('--redis <url>', 'Redis URL, or a Redis Cluster: any node\'s URL, or several seed nodes separated by commas (default: $REDIS_URL or redis://127.0.0.1:6379; prefer REDIS_URL for a password, `ps` shows arguments; if the connection to 127.0.0.1, localhost or ::1 is refused, a redis-server is started for the run)')
    .option('--shards <n>', 'for a new queue: sub-queues on their own hash tags, spread over a Redis Cluster\'s masters (1-256; default 1; a resume or --join takes the queue\'s)')
    .option('--max-requests <n>', 'stop after this many pages across all workers (1-1000000000)')
    .option('--dedup <mode>', 'bloom (Redis Bloom filter), set (exact Redis set, scrapy-redis dupefilter), none', 'bloom')
    .option('--results <where>', 'where workers put their page records: files (one per worker, merged into --output) or redis (one Redis dataset named after the queue)', 'files')
    .option('--output <file>', 'merged JSON Lines, one record per page (default: storage/distributed-cheerio/<queue>/pages.jsonl)')
    .option('--summary-json <file>', 'also write the summary as JSON')
    .option('--kill-one-worker-after <n>', 'chaos: SIGKILL one worker after n pages, then start a replacement (1-1000000000)')
    .option('--queue <name>', 'queue name (default: unique per run, removed after it); a named queue is kept')
    .option('--join', 'only start workers on an existing --queue (another machine seeded it)')
    .option('--key-prefix <prefix>', 'Redis key prefix', 'crawlee')
    .option('--concurrency <n>', 'concurrent requests per worker (1-1000)', '8')
    .option('--lock-secs <n>', 'seconds a worker holds a request lock, 6-86400 (a killed worker\'s requests come back within twice this)', '30')
    .option('--host-delay-secs <s>', 'politeness across the fleet: minimum seconds between two requests to one host, as the site sees them (0-86400, fractions allowed; default 0)')
    .option('--max-per-host <n>', 'politeness across the fleet: most requests of one host in flight at once over all workers (1-10000; default 1 with a --host-delay-secs above 0, so the delay holds as the site sees it; else unlimited)')
    .option('--enqueue-strategy <name>', 'links to follow: same-hostname, same-domain, same-origin or all (a site spread over several hosts)', 'same-hostname')
    .option('--progress-secs <n>', 'seconds between progress lines (1-3600)', '3')
    .option('--memory', 'no Redis: crawl in one process on Crawlee MemoryStorage (the fallback, forced)')
    .option('--keep-keys', "keep this run's Redis keys after the summary")
    .option('--verbose', "show the workers' Crawlee INFO logs")
    .showHelpAfterError()
    .exitOverride();
}

async function main(argv: string[]): Promise<number> {
  const cli = program();
  try {
    cli.parse(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : EXIT_USAGE;
    }
    throw error;
  }
  if (cli.args.length > 0) {
    process.stderr.write(`error: unexpected argument(s): ${cli.args.join(' ')}\n`);
    return EXIT_USAGE;
  }
  let options;
  try {
    options = resolveOptions(cli.opts<RawOptions>());
    assertOutputPathsWritable(options);
    // Two runs on one machine never write the same output file (one would overwrite the other's results).
    outputLock = lockOutputs([
      ['--output', options.output],
      ...(options.summaryJson !== undefined ? ([['--summary-json', options.summaryJson]] as Array<[string, string]>) : []),
    ]);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${maskInText(error.message)}\nRun with --help for the options.\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  const summary = await runCrawl(options);
  if (summary.interrupted !== null) return EXIT_SIGNAL[summary.interrupted] ?? 1;
  return summary.allPagesCrawled || summary.stoppedByMaxRequests ? 0 : 1;
}

installLogFilter();
main(process.argv).then(
  (code) => {
    outputLock?.release();
    process.exit(code);
  },
  (error: unknown) => {
    outputLock?.release();
    // A finished queue is not a failure: its results are there already (the output was left alone).
    if (error instanceof QueueFinishedError) {
      log.warning(error.message);
      process.exit(0);
    }
    // Our own errors say what to do, and so do the Redis packages' typed connection errors (auth, ACL, ...): a stack
    // trace would only bury that.
    const explained = error instanceof DistributedCheerioError ? error : explainedRedisError(error);
    if (explained !== undefined) log.error(maskInText(explained.message));
    else log.exception(error as Error, 'the crawl failed');
    process.exit(error instanceof UsageError ? EXIT_USAGE : 1);
  },
);

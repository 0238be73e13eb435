import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join as joinPath, resolve } from 'node:path';
import { assertKeyPrefix, InvalidOptionsError } from 'crawlee-redis-queue';
import { OptionRangeError } from './errors/option-range-error.js';
import { UsageError } from './errors/usage-error.js';
import { maskInText, maskUrl } from './mask-credentials.js';

/** Where the dedup check of the run happens. */
export type DedupMode = 'bloom' | 'set' | 'none';
export const DEDUP_MODES: readonly DedupMode[] = ['bloom', 'set', 'none'];

/** Where the workers put their page records: `files` (one JSON Lines file per worker beside `--output`) or `redis`
 * (one Redis dataset named after the queue, shared by every worker and machine). */
export type ResultsMode = 'files' | 'redis';
export const RESULTS_MODES: readonly ResultsMode[] = ['files', 'redis'];

/** Which links of a page a worker follows, by Crawlee's `EnqueueStrategy` names. `same-hostname` (the default) stays
 * on the start URL's host; `all` follows every http(s) link (a site spread over several hosts, or the politeness
 * tests' loopback hosts). */
export type EnqueueStrategyName = 'same-hostname' | 'same-domain' | 'same-origin' | 'all';
export const ENQUEUE_STRATEGIES: readonly EnqueueStrategyName[] = ['same-hostname', 'same-domain', 'same-origin', 'all'];

/**
 * The PostgreSQL documentation folder of the Debian package `postgresql-doc-15`; the environment variable
 * `POSTGRES_DOCS_DIR` points elsewhere (another version, a copy).
 */
export const POSTGRES_DOCS_DIR = process.env.POSTGRES_DOCS_DIR ?? '/usr/share/doc/postgresql-doc-15/html';

/** Everything one run needs, validated. Paths are absolute. */
export interface RunOptions {
  /** Worker processes. */
  workers: number;
  /** The folder to serve and crawl (unset when `startUrl` is set). */
  site?: string;
  /** True when the run crawls the generated demo site (written to a temporary folder by the coordinator). */
  demo: boolean;
  /** True when the demo site was chosen because the PostgreSQL docs are not installed (the CLI says how to get them). */
  docsMissing: boolean;
  /** A site to crawl instead of a served folder. */
  startUrl?: string;
  /** Redis to use: one `redis://` / `rediss://` URL, or several joined by commas (seed nodes of a Redis Cluster, as
   * ioredis' `new Cluster([url, ...])` takes them); when nothing answers at a single local URL the coordinator falls
   * back (see README). Whether it is a Cluster is asked of the server at start-up (`INFO cluster`). */
  redisUrl: string;
  /** True when the user named the Redis URL (`--redis` or `REDIS_URL`). */
  redisUrlGiven: boolean;
  /** Stop after this many pages across the fleet. */
  maxRequests?: number;
  dedup: DedupMode;
  /** Where the workers put their page records (see {@link ResultsMode}). */
  results: ResultsMode;
  summaryJson?: string;
  /** SIGKILL one worker once the fleet has handled this many pages, then start a replacement. */
  killOneWorkerAfter?: number;
  /** Merged JSON Lines output, one record per page (absolute). */
  output: string;
  /** Queue name the user gave (`--queue`); unset for a per-run queue. */
  queueName?: string;
  /** The queue this run uses: `queueName`, or a name unique to this run (`crawl-<time>-<random>`). */
  runQueueName: string;
  /** True when `--output` was given; the default is `storage/distributed-cheerio/<runQueueName>/pages.jsonl`, so two
   * runs from one folder never share an output file. */
  outputGiven: boolean;
  /** Only start workers on an existing queue (another machine seeds it). */
  join: boolean;
  /** Redis key prefix of the queue and the dedup store. */
  keyPrefix: string;
  /** Concurrent requests per worker. */
  concurrency: number;
  /** Seconds a worker holds a request before another may take it (how fast a killed worker's requests come back). */
  lockSecs: number;
  /** Seconds between progress lines. */
  progressSecs: number;
  /** Skip Redis and crawl in one process (the fallback, forced). */
  memory: boolean;
  /** Keep the run's Redis keys after the summary (a named queue is always kept). */
  keepKeys: boolean;
  /** Crawlee log level of the worker processes. */
  verbose: boolean;
  /** Which links a worker follows (`--enqueue-strategy`). */
  enqueueStrategy: EnqueueStrategyName;
  /** `--host-delay-secs`: the fleet's minimum gap between two requests to one host, in seconds (unset: no delay). */
  hostDelaySecs?: number;
  /** `--max-per-host`: most requests of one host in flight across the fleet (unset: 1 with a host delay above 0,
   * else unlimited; see `effectiveMaxPerHost`). */
  maxPerHost?: number;
  /** `--shards`: sub-queues of a new queue (crawlee-redis-queue's `shards`), 1-256. Unset: 1 for a new queue, the
   * recorded count for an existing one (a resume, a `--join`). */
  shards?: number;
}

/** Raw strings as commander hands them over. */
export interface RawOptions {
  workers?: string;
  site?: string;
  demo?: boolean;
  startUrl?: string;
  redis?: string;
  maxRequests?: string;
  dedup?: string;
  results?: string;
  summaryJson?: string;
  killOneWorkerAfter?: string;
  output?: string;
  queue?: string;
  join?: boolean;
  keyPrefix?: string;
  concurrency?: string;
  lockSecs?: string;
  progressSecs?: string;
  memory?: boolean;
  keepKeys?: boolean;
  verbose?: boolean;
  enqueueStrategy?: string;
  hostDelaySecs?: string;
  maxPerHost?: string;
  shards?: string;
}

/** The directory the user ran the command in (`npm start` runs the script inside the workspace folder). */
export function userCwd(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

function userPath(path: string): string {
  return isAbsolute(path) ? path : resolve(userCwd(), path);
}

/**
 * Most worker processes one machine may start: each is a Node.js process of about 100 MB, and more workers than a
 * few per core only queue up for CPU. A bigger fleet is more machines (`--join`).
 */
export const MAX_WORKERS = 64;

/**
 * The documented range of every numeric option (README, options table), checked before anything starts.
 * `--lock-secs`: at least 6 (navigation and handler time-outs are 40 % of it each, at least 2 s), at most one day
 * (crawlee-redis-queue accepts up to 30 days, but a killed worker's requests come back only after up to twice the
 * lock time, and Crawlee's time-outs of 40 % of it must stay far below Node's 24.8-day timer limit).
 */
export const OPTION_RANGES = {
  '--workers': { min: 1, max: MAX_WORKERS, hint: 'Each worker is a Node.js process of about 100 MB; for a bigger fleet start more machines with --join.' },
  '--max-requests': { min: 1, max: 1_000_000_000, hint: '' },
  '--kill-one-worker-after': { min: 1, max: 1_000_000_000, hint: '' },
  '--concurrency': { min: 1, max: 1000, hint: 'More concurrent requests per worker only queue up in one Node.js event loop; start more workers.' },
  '--lock-secs': { min: 6, max: 86_400, hint: 'A killed worker\'s requests come back only after up to twice the lock time.' },
  '--progress-secs': { min: 1, max: 3600, hint: '' },
  // The queue's own ranges of politeness.minDelaySecs and politeness.maxConcurrencyPerHost.
  '--host-delay-secs': { min: 0, max: 86_400, hint: 'Seconds, fractions allowed (0.25); 0 means no delay between requests to one host.' },
  '--max-per-host': { min: 1, max: 10_000, hint: 'The fleet-wide limit of requests in flight to one host.' },
  // crawlee-redis-queue's range of `shards`.
  '--shards': { min: 1, max: 256, hint: 'Sub-queues of one crawl, each on its own hash tag; a few per master of the Redis Cluster is enough (12 on 3 masters).' },
} as const;

type NumericOption = keyof typeof OPTION_RANGES;

/** A number of seconds with up to 3 decimals (milliseconds) inside the option's range. */
function seconds(name: NumericOption, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const { min, max, hint } = OPTION_RANGES[name];
  const n = Number(value);
  if (!/^\s*\d+(\.\d{1,3})?\s*$/.test(value) || !Number.isFinite(n) || n < min || n > max) {
    throw new OptionRangeError(name, value, min, max, hint, true);
  }
  return n;
}

function integer(name: NumericOption, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const { min, max, hint } = OPTION_RANGES[name];
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new OptionRangeError(name, value, min, max, hint);
  }
  return n;
}

function httpUrl(name: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} is not a valid URL: "${maskInText(value)}".`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new UsageError(`${name} must use ${protocols.join(' or ')}, got "${maskUrl(value)}".`);
  }
  return url.href;
}

/**
 * `--redis` / `REDIS_URL`: one Redis URL, or the seed nodes of a Redis Cluster as a comma-separated list of URLs
 * (the list ioredis' `new Cluster([...])` takes). Every URL is `redis://` or `rediss://`; the path is the database
 * index, which a Cluster only has as 0.
 *
 * @param value - the raw option
 * @returns the URLs, normalized, joined by commas
 * @throws {@link UsageError} for a malformed URL, another scheme, a bad path, mixed schemes or a database index in a list
 */
export function redisUrlList(value: string): string {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    throw new UsageError(`--redis: an empty entry in the list "${maskInText(value)}"; give one URL, or the cluster's seed nodes separated by commas.`);
  }
  const urls = parts.map((part) => httpUrl('--redis', part, ['redis:', 'rediss:']));
  for (const url of urls) {
    const path = new URL(url).pathname;
    if (!/^\/?(\d{1,5})?$/.test(path)) {
      throw new UsageError(`--redis: the path of a Redis URL is the database index (redis://host:port/2), got "${path}" in "${maskUrl(url)}".`);
    }
    if (urls.length > 1 && !/^\/?0?$/.test(path)) {
      throw new UsageError(`--redis: several URLs are the seed nodes of a Redis Cluster, which has only database 0; drop "${path}" from "${maskUrl(url)}".`);
    }
  }
  if (new Set(urls.map((url) => new URL(url).protocol)).size > 1) {
    throw new UsageError('--redis: the seed nodes of one Redis Cluster use one scheme, all redis:// or all rediss://.');
  }
  return urls.join(',');
}

/** @returns the URLs of a `redisUrl` ({@link redisUrlList}): one, or a Cluster's seed nodes */
export function redisUrlsOf(redisUrl: string): string[] {
  return redisUrl.split(',');
}

/** A queue name nobody else uses: one run never picks up another run's requests or dedup keys. */
export function uniqueQueueName(): string {
  return `crawl-${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
}

/** The default `--output` of a queue, relative to the folder the user ran the command in. */
export function defaultOutput(queueName: string): string {
  return `storage/distributed-cheerio/${queueName}/pages.jsonl`;
}

/**
 * Checks every option and resolves defaults, touching nothing.
 *
 * @param raw - the strings from the command line
 * @param env - environment (for `REDIS_URL`)
 * @returns the validated options
 * @throws {@link UsageError} on any bad value
 */
export function resolveOptions(raw: RawOptions, env: NodeJS.ProcessEnv = process.env): RunOptions {
  const workers = integer('--workers', raw.workers) ?? 2;
  const dedup = (raw.dedup ?? 'bloom') as DedupMode;
  if (!DEDUP_MODES.includes(dedup)) {
    throw new UsageError(`--dedup must be one of ${DEDUP_MODES.join(', ')}, got "${raw.dedup}".`);
  }
  const results = (raw.results ?? 'files') as ResultsMode;
  if (!RESULTS_MODES.includes(results)) {
    throw new UsageError(`--results must be one of ${RESULTS_MODES.join(', ')}, got "${raw.results}".`);
  }
  if (results === 'redis' && raw.memory === true) throw new UsageError('--results redis needs Redis; it cannot run with --memory.');
  const sources = [raw.site !== undefined, raw.startUrl !== undefined, raw.demo === true].filter(Boolean).length;
  if (sources > 1) throw new UsageError('Give only one of --site, --start-url and --demo.');

  let site: string | undefined;
  let startUrl: string | undefined;
  if (raw.site !== undefined) {
    site = userPath(raw.site);
    if (!existsSync(site) || !statSync(site).isDirectory()) {
      throw new UsageError(`--site ${raw.site}: no such folder (${site}).`);
    }
  } else if (raw.startUrl !== undefined) {
    startUrl = httpUrl('--start-url', raw.startUrl, ['http:', 'https:']);
  }

  const redisFromEnv = env.REDIS_URL !== undefined && env.REDIS_URL !== '' ? env.REDIS_URL : undefined;
  const redisRaw = raw.redis ?? redisFromEnv;
  const redisUrl = redisUrlList(redisRaw ?? 'redis://127.0.0.1:6379');

  const queueName = raw.queue;
  if (queueName !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(queueName)) {
    throw new UsageError(`--queue must be 1-100 letters, digits, '.', '_' or '-', got "${queueName}".`);
  }
  if (queueName === 'default') {
    throw new UsageError('--queue default is taken by Crawlee (it drops a queue of that name on a second run); pick another name.');
  }
  const join = raw.join === true;
  if (join && queueName === undefined) throw new UsageError('--join needs --queue NAME (the queue another machine seeded).');
  if (join && raw.memory === true) throw new UsageError('--join and --memory exclude each other.');
  if (join && sources > 0) {
    throw new UsageError('--join only starts workers on a queue another machine seeded: drop --demo, --site and --start-url.');
  }
  // The crawl of a folder starts at its index.html: without one the start page is a 404 and nothing is crawled.
  if (site !== undefined && !existsSync(joinPath(site, 'index.html'))) {
    throw new UsageError(`--site ${raw.site}: the folder has no index.html (${joinPath(site, 'index.html')}), where the crawl starts.`);
  }

  const keyPrefix = raw.keyPrefix ?? 'crawlee';
  if (!/^[A-Za-z0-9:_-]{1,50}$/.test(keyPrefix)) throw new UsageError(`--key-prefix has invalid characters: "${keyPrefix}".`);
  // The queue's own rules (e.g. no ":rq:" / ":ds:" segment), checked up front (pure: nothing is connected or
  // written), so a bad prefix is a usage error before anything starts.
  try {
    assertKeyPrefix('keyPrefix', keyPrefix);
  } catch (error) {
    if (error instanceof InvalidOptionsError) throw new UsageError(`--key-prefix: ${error.message}`);
    throw error;
  }

  const lockSecs = integer('--lock-secs', raw.lockSecs) ?? 30;
  const enqueueStrategy = (raw.enqueueStrategy ?? 'same-hostname') as EnqueueStrategyName;
  if (!ENQUEUE_STRATEGIES.includes(enqueueStrategy)) {
    throw new UsageError(`--enqueue-strategy must be one of ${ENQUEUE_STRATEGIES.join(', ')}, got "${raw.enqueueStrategy}".`);
  }
  const hostDelaySecs = seconds('--host-delay-secs', raw.hostDelaySecs);
  const maxPerHost = integer('--max-per-host', raw.maxPerHost);
  // Politeness lives in the shared queue's Lua scripts; the one-process fallback has no such queue.
  if (raw.memory === true && (hostDelaySecs !== undefined || maxPerHost !== undefined)) {
    throw new UsageError('--host-delay-secs and --max-per-host are enforced by the Redis queue; they cannot run with --memory (use Crawlee\'s sameDomainDelaySecs there).');
  }
  const shards = integer('--shards', raw.shards);
  if (shards !== undefined && shards > 1) {
    if (raw.memory === true) throw new UsageError('--shards splits a Redis queue over hash tags; it cannot run with --memory.');
    // The example keys every request by its Scrapy fingerprint; a polite sharded queue keeps a host's schedule in the
    // shard of the host, which a fingerprint does not name (crawlee-redis-queue refuses that combination).
    if (hostDelaySecs !== undefined || maxPerHost !== undefined) {
      throw new UsageError(
        '--host-delay-secs and --max-per-host need --shards 1: a sharded queue keeps each host\'s schedule in the shard of ' +
          'its host, and this example keys requests by Scrapy fingerprint, which spreads one host over every shard. ' +
          'Crawl politely with --shards 1 (one hash tag, one master), or spread the crawl with --shards and no host limits.',
      );
    }
  }
  const runQueueName = queueName ?? uniqueQueueName();
  const docsMissing = raw.demo !== true && site === undefined && startUrl === undefined && !join && !existsSync(POSTGRES_DOCS_DIR);
  const options: RunOptions = {
    workers,
    demo: raw.demo === true || docsMissing,
    docsMissing,
    redisUrl,
    redisUrlGiven: redisRaw !== undefined,
    dedup,
    results,
    runQueueName,
    output: userPath(raw.output ?? defaultOutput(runQueueName)),
    outputGiven: raw.output !== undefined,
    join,
    keyPrefix,
    concurrency: integer('--concurrency', raw.concurrency) ?? 8,
    lockSecs,
    progressSecs: integer('--progress-secs', raw.progressSecs) ?? 3,
    memory: raw.memory === true,
    keepKeys: raw.keepKeys === true,
    verbose: raw.verbose === true,
    enqueueStrategy,
  };
  if (hostDelaySecs !== undefined) options.hostDelaySecs = hostDelaySecs;
  if (maxPerHost !== undefined) options.maxPerHost = maxPerHost;
  if (shards !== undefined) options.shards = shards;
  if (site !== undefined) options.site = site;
  else if (startUrl !== undefined) options.startUrl = startUrl;
  else if (!options.demo && !join) options.site = POSTGRES_DOCS_DIR;
  const maxRequests = integer('--max-requests', raw.maxRequests);
  if (maxRequests !== undefined) options.maxRequests = maxRequests;
  const kill = integer('--kill-one-worker-after', raw.killOneWorkerAfter);
  if (kill !== undefined) {
    if (raw.memory === true) throw new UsageError('--kill-one-worker-after needs worker processes; it cannot run with --memory.');
    options.killOneWorkerAfter = kill;
  }
  if (raw.summaryJson !== undefined) options.summaryJson = userPath(raw.summaryJson);
  if (queueName !== undefined) options.queueName = queueName;
  return options;
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FleetProcess } from '../process/fleet-process.js';
import { locateScrapyRedisSrc } from './locate-scrapy-redis.js';

/** The Python that runs Scrapy: `$SCRAPY_PYTHON`, else Debian's `/usr/bin/python3` (python3-scrapy, python3-redis). */
export const SCRAPY_PYTHON = process.env['SCRAPY_PYTHON'] ?? '/usr/bin/python3';

/** The spider file, shipped in the package's `python/` folder (found walking up from `src/scrapy/` or `dist/`). */
export const SPIDER_FILE = findUp(
  dirname(fileURLToPath(import.meta.url)),
  join('python', 'interop_spider.py'),
);

function findUp(from: string, relative: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) return join(from, relative);
  }
}

/**
 * Marks URLs as seen through the real scrapy-redis dupefilter (`RFPDupeFilter.request_seen(Request(url))`, i.e. what a
 * Scrapy worker does when it schedules a link) in `<key>`.
 * @returns per URL, whether the dupefilter had already seen it
 * @throws Error with Python's output when the script fails
 */
export function markSeenByScrapy(
  setup: ScrapySetup,
  redisUrl: string,
  key: string,
  urls: readonly string[],
): boolean[] {
  const script = findUp(dirname(fileURLToPath(import.meta.url)), join('python', 'mark_seen.py'));
  const r = spawnSync(setup.python, [script, redisUrl, key, ...urls], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: setup.scrapyRedisSrc, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (r.error || r.status !== 0) throw new Error(`mark_seen.py failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => line === 'seen');
}

/** What {@link checkScrapy} found. */
export interface ScrapySetup {
  python: string;
  /** PYTHONPATH entry of the vendored scrapy-redis. */
  scrapyRedisSrc: string;
  scrapy: string;
  redisPy: string;
}

/**
 * Checks that the real Scrapy, redis-py and the vendored scrapy-redis import, and returns their versions.
 * @throws Error saying what to install (`apt-get install python3-scrapy python3-redis`) or where scrapy-redis was
 *   looked for; never a silent skip
 */
export function checkScrapy(): ScrapySetup {
  const located = locateScrapyRedisSrc();
  if (!located.dir) {
    throw new Error(
      `vendored scrapy-redis not found; set SCRAPY_REDIS_SRC. Looked in:\n  ${located.tried.join('\n  ')}`,
    );
  }
  const probe =
    'import scrapy, redis, scrapy_redis.scheduler, scrapy_redis.dupefilter; print(scrapy.__version__, redis.__version__)';
  const r = spawnSync(SCRAPY_PYTHON, ['-c', probe], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: located.dir },
  });
  if (r.error || r.status !== 0) {
    throw new Error(
      `${SCRAPY_PYTHON} cannot run scrapy-redis (${r.error?.message ?? r.stderr.trim().split('\n').pop()}). ` +
        'Install the real Scrapy and redis-py: apt-get install python3-scrapy python3-redis ' +
        '(or set SCRAPY_PYTHON to a python that has both).',
    );
  }
  const [scrapy = '', redisPy = ''] = r.stdout.trim().split(' ');
  return { python: SCRAPY_PYTHON, scrapyRedisSrc: located.dir, scrapy, redisPy };
}

/** Options of {@link spawnScrapy}. */
export interface SpawnScrapyOptions {
  setup: ScrapySetup;
  /** The spider name: the keys are `<spider>:requests`, `<spider>:dupefilter`, `<spider>:start_urls`. */
  spider: string;
  redisUrl: string;
  /** Worker id, in the User-Agent `scrapy-fleet/<worker>`. */
  worker: string;
  /** Regular expression a link's path must match to be followed. @defaultValue every link */
  follow?: string;
  /** Start URLs popped per batch from the feed. @defaultValue 2 */
  batchSize?: number;
  /** Seconds idle (empty feed and queue) before the process closes. @defaultValue 3 */
  maxIdleSecs?: number;
  /** File for the process's log. */
  logFile?: string;
}

/**
 * Starts one Scrapy process (`python3 -m scrapy runspider python/interop_spider.py`) with the vendored scrapy-redis
 * on PYTHONPATH: the Redis scheduler and dupefilter, `SCHEDULER_PERSIST = True`, start URLs from `<spider>:start_urls`.
 * It logs `Spider opened` once it reads the feed, and exits after `maxIdleSecs` idle (scrapy-redis checks about every
 * 5 s, Scrapy's heartbeat).
 */
export function spawnScrapy(options: SpawnScrapyOptions): FleetProcess {
  const { setup, spider, redisUrl, worker } = options;
  const args = ['-m', 'scrapy', 'runspider', SPIDER_FILE, '-a', `name=${spider}`, '-a', `worker=${worker}`];
  args.push('-a', `redis_batch_size=${options.batchSize ?? 2}`);
  if (options.follow) args.push('-a', `follow=${options.follow}`);
  args.push('-s', `REDIS_URL=${redisUrl}`, '-s', `MAX_IDLE_TIME_BEFORE_CLOSE=${options.maxIdleSecs ?? 3}`);
  return new FleetProcess(`scrapy ${worker}`, setup.python, args, {
    // runspider looks for scrapy.cfg upwards from the working directory: an empty temporary one has none.
    cwd: mkdtempSync(join(tmpdir(), 'scrapy-interop-')),
    env: { ...process.env, PYTHONPATH: setup.scrapyRedisSrc, PYTHONDONTWRITEBYTECODE: '1' },
    logFile: options.logFile,
  });
}

import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FleetProcess, SPIDER_FILE, type ScrapySetup } from '../../src/index.js';

/** scrapy-redis's frontier classes, as `SCHEDULER_QUEUE_CLASS` names them and as the takeover names them. */
export const QUEUE_CLASSES = {
  priority: 'scrapy_redis.queue.PriorityQueue',
  fifo: 'scrapy_redis.queue.FifoQueue',
  lifo: 'scrapy_redis.queue.LifoQueue',
} as const;

/** Options of {@link spawnTakeoverScrapy}. */
export interface TakeoverScrapyOptions {
  setup: ScrapySetup;
  redisUrl: string;
  spider: string;
  worker: string;
  queueClass: keyof typeof QUEUE_CLASSES;
  serializer: 'pickle' | 'json';
  logFile: string;
}

/**
 * One Scrapy 2.8 + vendored scrapy-redis process of the interop spider (python/interop_spider.py), with the frontier
 * class and serializer given as settings (`-s` wins over the spider's custom_settings), one request at a time (so
 * at most one popped request is in flight when it is stopped), and a long idle time (it is stopped, never idles out).
 */
export function spawnTakeoverScrapy(o: TakeoverScrapyOptions): FleetProcess {
  const args = ['-m', 'scrapy', 'runspider', SPIDER_FILE, '-a', `name=${o.spider}`, '-a', `worker=${o.worker}`, '-a', 'redis_batch_size=1'];
  args.push('-s', `REDIS_URL=${o.redisUrl}`, '-s', 'MAX_IDLE_TIME_BEFORE_CLOSE=60', '-s', 'CONCURRENT_REQUESTS=1');
  args.push('-s', `SCHEDULER_QUEUE_CLASS=${QUEUE_CLASSES[o.queueClass]}`);
  if (o.serializer === 'json') args.push('-s', 'SCHEDULER_SERIALIZER=scrapy_json_serializer');
  return new FleetProcess(`scrapy ${o.worker}`, o.setup.python, args, {
    cwd: mkdtempSync(join(tmpdir(), 'scrapy-takeover-')),
    env: { ...process.env, PYTHONPATH: `${o.setup.scrapyRedisSrc}:${dirname(SPIDER_FILE)}`, PYTHONDONTWRITEBYTECODE: '1' },
    logFile: o.logFile,
  });
}

/** The built `crawlee-redis` bin of crawlee-redis-queue (what users install). */
export const CRAWLEE_REDIS_BIN = join(dirname(createRequire(import.meta.url).resolve('crawlee-redis-queue')), 'cli', 'bin.js');

/** Starts `crawlee-redis takeover ...` as a child process. */
export function spawnTakeoverCli(args: string[], logFile: string): FleetProcess {
  return new FleetProcess('crawlee-redis takeover', process.execPath, [CRAWLEE_REDIS_BIN, 'takeover', ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    logFile,
  });
}


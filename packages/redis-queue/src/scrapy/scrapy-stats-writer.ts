import { log } from 'crawlee';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { isCluster, type RedisConnection } from '../core/connection.js';

/** Options of {@link ScrapyStatsWriter} / `attachScrapyStats`. */
export interface ScrapyStatsOptions {
  /** The Redis connection (an ioredis `Redis` or `Cluster`; never closed here). */
  redis: RedisConnection;
  /** The stats hash: scrapy-redis' `STATS_KEY` (`<spider>:stats`), shared by every worker of the crawl. */
  key: string;
  /** Seconds between two writes (0.1 to 3600); counters move in memory between them. @defaultValue 5 */
  intervalSecs?: number;
}

/**
 * Writes a crawl's stats to a Redis hash with scrapy-redis' `RedisStatsCollector` field names, so a dashboard or
 * script that reads `<spider>:stats` of a Scrapy fleet reads a Crawlee fleet the same way (and both fleets can add to
 * one hash). Counters (`downloader/request_count`, `downloader/request_method_count/<M>`, `downloader/response_count`,
 * `downloader/response_status_count/<code>`, `response_received_count`, `item_scraped_count`) move in memory and go
 * out as one MULTI of `HINCRBY`s per interval from an unref'd timer: nothing is sent on the request path.
 * `start_time` is set once (`HSETNX`, the first worker), `finish_time`, `finish_reason` and `elapsed_time_seconds`
 * by each worker as it finishes (the last one wins). Times are UNIX seconds with a fraction, as scrapy-redis stores
 * a `datetime` (`value.timestamp()`). Unlike scrapy-redis, the hash is never deleted at the end (its
 * `SCHEDULER_PERSIST=False` clear would wipe the other workers' counts).
 */
export class ScrapyStatsWriter {
  readonly key: string;
  private readonly redis: RedisConnection;
  private readonly intervalMs: number;
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private startedAt: number | undefined;
  private writing: Promise<void> = Promise.resolve();

  /**
   * @param options - connection, key, interval
   * @throws {@link InvalidOptionsError} for a missing connection, an empty key or an interval out of range
   */
  constructor(options: ScrapyStatsOptions) {
    if (!options || typeof options !== 'object' || !options.redis) throw new InvalidOptionsError('scrapyStats needs a redis connection');
    if (typeof options.key !== 'string' || options.key === '') throw new InvalidOptionsError(`scrapyStats.key must be a non-empty string (got ${JSON.stringify(options.key)})`);
    const secs = options.intervalSecs ?? 5;
    if (typeof secs !== 'number' || !Number.isFinite(secs) || secs < 0.1 || secs > 3600) {
      throw new InvalidOptionsError(`scrapyStats.intervalSecs must be a number of seconds from 0.1 to 3600 (got ${String(options.intervalSecs)})`);
    }
    if (isCluster(options.redis) === false && typeof (options.redis as { multi?: unknown }).multi !== 'function') {
      throw new InvalidOptionsError('scrapyStats.redis must be an ioredis Redis or Cluster');
    }
    this.redis = options.redis;
    this.key = options.key;
    this.intervalMs = Math.round(secs * 1000);
  }

  /** Adds to a counter (in memory). @param field - scrapy-redis field name @param by - amount */
  inc(field: string, by = 1): void {
    this.pending.set(field, (this.pending.get(field) ?? 0) + by);
    this.start();
  }

  /** One download attempt. @param method - HTTP method */
  request(method: string): void {
    this.inc('downloader/request_count');
    this.inc(`downloader/request_method_count/${method.toUpperCase()}`);
  }

  /** One response. @param status - HTTP status code */
  response(status: number): void {
    this.inc('downloader/response_count');
    this.inc(`downloader/response_status_count/${status}`);
    this.inc('response_received_count');
  }

  /** Items stored. @param count - how many */
  items(count: number): void {
    if (count > 0) this.inc('item_scraped_count', count);
  }

  private start(): void {
    if (this.startedAt === undefined) this.startedAt = Date.now();
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Writes the counters gathered since the last write (one MULTI). A failed write keeps them for the next one. */
  flush(extra: Record<string, string> = {}): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    const startedAt = this.startedAt;
    this.writing = this.writing.then(async () => {
      if (batch.size === 0 && Object.keys(extra).length === 0 && startedAt === undefined) return;
      const multi = this.redis.multi();
      if (startedAt !== undefined) multi.hsetnx(this.key, 'start_time', String(startedAt / 1000));
      for (const [field, by] of batch) multi.hincrby(this.key, field, by);
      if (Object.keys(extra).length > 0) multi.hset(this.key, extra);
      try {
        await multi.exec();
      } catch (error) {
        for (const [field, by] of batch) this.pending.set(field, (this.pending.get(field) ?? 0) + by);
        log.warning(`crawlee-redis-queue: writing Scrapy stats to ${this.key} failed; retrying at the next interval`, { error: String(error) });
      }
    });
    return this.writing;
  }

  /**
   * Stops the timer and writes the last counters with `finish_time`, `finish_reason` and `elapsed_time_seconds`.
   * @param reason - scrapy's finish reason @defaultValue 'finished'
   */
  async close(reason = 'finished'): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const now = Date.now();
    const started = this.startedAt ?? now;
    this.startedAt ??= now;
    await this.flush({ finish_time: String(now / 1000), finish_reason: reason, elapsed_time_seconds: String((now - started) / 1000) });
  }
}

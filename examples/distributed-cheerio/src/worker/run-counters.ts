import type { RedisClient } from '../redis/open-redis.js';

/** Counter names every worker adds to; the coordinator reads them for progress and the summary. */
export type CounterName =
  | 'pages' // pages recorded (handler finished), all workers
  | 'offered' // requests offered to the queue (seed + every same-host link found)
  | 'enqueued' // offered requests the queue took as new
  | 'httpErrors' // pages answered with a 4xx status (not recorded)
  | 'failed' // requests that failed after every retry
  | 'retries' // failed attempts that were retried (a time-out, a refused or cut connection, ...)
  | 'refusedRetries' // of those, attempts whose connection was refused
  | 'refused' // of the failed requests, those whose last attempt was refused
  | 'overBudget' // requests skipped because --max-requests was reached
  | 'throttled' // answers 429/503 (the host was backed off for the whole fleet, the request retried)
  | 'hostBackoffs'; // hosts backed off by this fleet (Retry-After, or a run of errors)

/**
 * The fleet's shared tallies. In a distributed run they live in one Redis hash (HINCRBY from every worker, so the
 * coordinator reads totals, never guesses); in a one-process run, in memory.
 */
export interface RunCounters {
  add(name: CounterName, by?: number, worker?: string): Promise<void>;
  /** Takes one page from the `--max-requests` budget; false once the fleet has used it up. */
  claimPage(limit: number | undefined): Promise<boolean>;
  read(): Promise<Record<string, number>>;
  /** Remembers that the request for this URL failed once and will be fetched again (so a re-fetch is explained). */
  noteRetry(url: string): Promise<void>;
  /** URLs noted by {@link RunCounters.noteRetry}. */
  retried(): Promise<string[]>;
}

/** Counters in the Redis hash `key`. Per-worker counts are kept as `<name>:<worker>` fields. */
export class RedisRunCounters implements RunCounters {
  constructor(
    private readonly redis: RedisClient,
    readonly key: string,
    /** Set of retried URLs (same hash tag as `key`). */
    readonly retriedKey = `${key}:retried`,
  ) {}

  async noteRetry(url: string): Promise<void> {
    await this.redis.sadd(this.retriedKey, url);
  }

  async retried(): Promise<string[]> {
    return this.redis.smembers(this.retriedKey);
  }

  async add(name: CounterName, by = 1, worker?: string): Promise<void> {
    if (by === 0) return;
    const pipeline = this.redis.pipeline().hincrby(this.key, name, by);
    if (worker !== undefined) pipeline.hincrby(this.key, `${name}:${worker}`, by);
    await pipeline.exec();
  }

  async claimPage(limit: number | undefined): Promise<boolean> {
    if (limit === undefined) return true;
    return (await this.redis.hincrby(this.key, 'budget', 1)) <= limit;
  }

  async read(): Promise<Record<string, number>> {
    const raw = await this.redis.hgetall(this.key);
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
  }
}

/** The same counters for a crawl in one process. */
export class MemoryRunCounters implements RunCounters {
  private readonly values = new Map<string, number>();
  private readonly retriedUrls = new Set<string>();

  noteRetry(url: string): Promise<void> {
    this.retriedUrls.add(url);
    return Promise.resolve();
  }

  retried(): Promise<string[]> {
    return Promise.resolve([...this.retriedUrls]);
  }

  private bump(field: string, by: number): number {
    const next = (this.values.get(field) ?? 0) + by;
    this.values.set(field, next);
    return next;
  }

  add(name: CounterName, by = 1, worker?: string): Promise<void> {
    this.bump(name, by);
    if (worker !== undefined) this.bump(`${name}:${worker}`, by);
    return Promise.resolve();
  }

  claimPage(limit: number | undefined): Promise<boolean> {
    return Promise.resolve(limit === undefined || this.bump('budget', 1) <= limit);
  }

  read(): Promise<Record<string, number>> {
    return Promise.resolve(Object.fromEntries(this.values));
  }
}

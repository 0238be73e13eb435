import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { integerOption, numberOption } from '../options/option-ranges.js';
import { defaultStartUrlsKey } from '../core/keys.js';
import { checkKnownOptions } from '../options/known-options.js';

/** Settings of the start-URL feed of a queue (scrapy-redis `<name>:start_urls`), made by {@link feedSettings}. */
export interface StartUrlFeedSettings {
  /** The feed keys in priority order; gets the queue name. */
  keys: (queueName: string) => string[];
  /** The first feed key; gets the queue name. */
  key: (queueName: string) => string;
  /** Layout of the feed keys. */
  layout: 'list' | 'set' | 'zset' | 'auto';
  /** How items are read. */
  format: 'scrapy-redis' | 'crawlee';
  /** Seconds a worker keeps polling an empty feed before it may finish (0: at once). */
  maxIdleSecs: number;
  /** Items moved per drain. */
  batchSize: number;
  /** When true every feed item is enqueued even if its uniqueKey was seen (scrapy-redis' `dont_filter=True`). */
  alwaysEnqueue: boolean;
}

/** How a start-URL feed key is laid out, as scrapy-redis reads it: a list (default; `LRANGE` + `LTRIM`), a set
 * (`REDIS_START_URLS_AS_SET`; `SPOP` semantics, any order), a sorted set (`REDIS_START_URLS_AS_ZSET`; highest score
 * first, as scrapy-redis' `ZREVRANGE` + `ZREMRANGEBYRANK` pops), or `auto` (asks `TYPE` on every drain). */
export type StartUrlFeedLayout = 'list' | 'set' | 'zset' | 'auto';

/** How feed items are read: as scrapy-redis' `make_request_from_data` reads them (`'scrapy-redis'`), or in this
 * package's own Crawlee shape (`'crawlee'`: url, method, headers, payload, userData, uniqueKey). */
export type StartUrlItemFormat = 'scrapy-redis' | 'crawlee';

/** Options of the start-URL feed (scrapy-redis `<name>:start_urls`, drained into the queue by idle workers). */
export interface StartUrlFeedOptions {
  /** The feed key, or a function of the queue name. @defaultValue `<queueName>:start_urls` */
  key?: string | ((queueName: string) => string);
  /** Several feed keys in priority order (scrapy-redis master's list `redis_key`): each drain reads the first key
   * that is not empty. Exclusive with `key`; duplicates are dropped. */
  keys?: readonly string[] | ((queueName: string) => readonly string[]);
  /** Layout of the feed key(s). @defaultValue 'list' */
  type?: StartUrlFeedLayout;
  /** How items are read. @defaultValue 'scrapy-redis' */
  format?: StartUrlItemFormat;
  /** Items moved per drain (1 to 10000). @defaultValue 100 */
  batchSize?: number;
  /** Enqueue every feed item even when its uniqueKey was seen (scrapy-redis' feed requests are `dont_filter`).
   * @defaultValue false (feed items are deduplicated by uniqueKey like every other request) */
  alwaysEnqueue?: boolean;
  /** Seconds a worker keeps polling an empty feed before it may finish (scrapy-redis' `MAX_IDLE_TIME_BEFORE_CLOSE`),
   * 0 to 604800. While the window is open, `listAndLockHead` reports `queueHasLockedRequests: true`, so Crawlee's
   * `isFinished()` stays false and the crawler keeps polling. Measured per worker on Redis time, from the last
   * drain that found the feed (or the queue) non-empty. Unlike scrapy-redis, 0 means "finish at once" (today's
   * behaviour), not "never". @defaultValue 0 */
  maxIdleSecs?: number;
}

const LAYOUTS: readonly StartUrlFeedLayout[] = ['list', 'set', 'zset', 'auto'];
const FORMATS: readonly StartUrlItemFormat[] = ['scrapy-redis', 'crawlee'];

function checkedKeys(keys: readonly string[]): string[] {
  if (!Array.isArray(keys) || keys.length === 0) throw new InvalidOptionsError('startUrls.keys must be a non-empty array of key names');
  const out: string[] = [];
  for (const key of keys) {
    if (typeof key !== 'string' || key.trim() === '') throw new InvalidOptionsError(`startUrls.keys: every key must be a non-empty string (got ${JSON.stringify(key)})`);
    if (!out.includes(key)) out.push(key);
  }
  return out;
}

function keysOf(options: StartUrlFeedOptions): (queueName: string) => string[] {
  const { key, keys } = options;
  if (key !== undefined && keys !== undefined) throw new InvalidOptionsError('startUrls takes either key or keys, not both');
  if (keys !== undefined) {
    if (typeof keys === 'function') return (name) => checkedKeys(keys(name));
    const fixed = checkedKeys(keys);
    return () => fixed;
  }
  if (typeof key === 'function') return (name) => checkedKeys([key(name)]);
  if (typeof key === 'string') {
    const fixed = checkedKeys([key]);
    return () => fixed;
  }
  if (key !== undefined) throw new InvalidOptionsError(`startUrls.key must be a string or a function (got ${typeof key})`);
  return (name) => [defaultStartUrlsKey(name)];
}

function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  const result = value ?? fallback;
  if (!allowed.includes(result)) throw new InvalidOptionsError(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')} (got ${JSON.stringify(value)})`);
  return result;
}

/**
 * Checks the feed options up front and turns them into the settings the queue core reads.
 *
 * @param option - `true` for the default feed, or the options
 * @returns the settings, or undefined when there is no feed
 * @throws {@link InvalidOptionsError} for a bad key list, layout, format, batch size or idle time (nothing written)
 */
export function feedSettings(option: boolean | StartUrlFeedOptions | undefined): StartUrlFeedSettings | undefined {
  if (!option) return undefined;
  const options: StartUrlFeedOptions = option === true ? {} : option;
  checkKnownOptions<StartUrlFeedOptions>('startUrls', options, { key: true, keys: true, type: true, format: true, batchSize: true, alwaysEnqueue: true, maxIdleSecs: true });
  // The ranges live in the one table of src/options/option-ranges.ts (a null or NaN is an error, never the default).
  const batchSize = integerOption('startUrls.batchSize', options.batchSize);
  const maxIdleSecs = numberOption('startUrls.maxIdleSecs', options.maxIdleSecs);
  const keys = keysOf(options);
  return {
    keys,
    key: (name) => keys(name)[0]!,
    layout: oneOf('startUrls.type', options.type, LAYOUTS, 'list'),
    format: oneOf('startUrls.format', options.format, FORMATS, 'scrapy-redis'),
    batchSize,
    alwaysEnqueue: options.alwaysEnqueue ?? false,
    maxIdleSecs,
  };
}

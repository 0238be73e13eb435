import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ScrapySerializer } from './scrapy-request-dict.js';
import type { ScrapyTakeoverRequest } from './to-crawlee-request.js';
import { checkKnownOptions } from '../options/known-options.js';

/** scrapy-redis's `SCHEDULER_QUEUE_CLASS`: `PriorityQueue` (default), `FifoQueue`, `LifoQueue`. */
export type ScrapyQueueClass = 'priority' | 'fifo' | 'lifo';

/** Options of {@link RedisQueueAdmin.takeOverScrapyRequests}. */
export interface TakeOverScrapyRequestsOptions {
  /** The scrapy-redis frontier key, `SCHEDULER_QUEUE_KEY` (default there `<spider>:requests`). Required. */
  key: string;
  /** `SCHEDULER_SERIALIZER`: `'pickle'` (scrapy-redis's default `picklecompat`) or `'json'`. @defaultValue 'pickle' */
  serializer?: ScrapySerializer;
  /** `SCHEDULER_QUEUE_CLASS`: `'priority'` (`PriorityQueue`, a sorted set), `'fifo'` or `'lifo'` (lists).
   * @defaultValue 'priority' */
  queueClass?: ScrapyQueueClass;
  /** Entries moved per atomic step, 1 to 10000. @defaultValue 500 */
  batchSize?: number;
  /** Milliseconds to wait between batches (spares a busy Redis), 0 to 60000. @defaultValue 0 */
  pauseMs?: number;
  /** The uniqueKey of each request, e.g. crawlee-scrapy-fingerprint's fingerprint with the options the workers use
   * (`(r) => fingerprintTransform(opts)(r).uniqueKey`), so it equals the workers' keys and the members of Scrapy's
   * dupefilter. @defaultValue Crawlee's default uniqueKey of the URL */
  uniqueKey?: (request: ScrapyTakeoverRequest) => string;
  /** Called after each batch with the running totals. */
  onProgress?: (progress: TakeOverScrapyRequestsResult) => void;
}

/** What a takeover did. */
export interface TakeOverScrapyRequestsResult {
  /** Requests stored in the queue. */
  moved: number;
  /** Entries whose uniqueKey the queue already held (pending or handled): removed from Scrapy's key, not stored again. */
  alreadyPresent: number;
  /** Entries that could not be read: in the queue's dead letters (id `takeover-<sha1 of the entry>`) with their raw bytes and reason. */
  deadLettered: number;
  /** PriorityQueue entries a Scrapy worker popped between our read and our move (that worker fetches them). */
  gone: number;
  /** Atomic steps run. */
  batches: number;
}

const SERIALIZERS: readonly string[] = ['pickle', 'json'];
const QUEUE_CLASSES: readonly string[] = ['priority', 'fifo', 'lifo'];

function intIn(name: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionsError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

/**
 * Checks takeover options up front (nothing is read or written before).
 * @param options - the options
 * @returns the options with defaults
 * @throws {@link InvalidOptionsError} naming the option and its range
 */
export function checkTakeoverOptions(options: TakeOverScrapyRequestsOptions): Required<Omit<TakeOverScrapyRequestsOptions, 'uniqueKey' | 'onProgress'>> &
  Pick<TakeOverScrapyRequestsOptions, 'uniqueKey' | 'onProgress'> {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('takeover options must be an object with a key');
  checkKnownOptions<TakeOverScrapyRequestsOptions>('takeOverScrapyRequests options', options, {
    key: true, serializer: true, queueClass: true, batchSize: true, pauseMs: true, uniqueKey: true, onProgress: true,
  });
  if (typeof options.key !== 'string' || options.key.length === 0) {
    throw new InvalidOptionsError('key must be the scrapy-redis frontier key, e.g. "<spider>:requests"');
  }
  const serializer = options.serializer ?? 'pickle';
  if (!SERIALIZERS.includes(serializer)) throw new InvalidOptionsError(`serializer must be 'pickle' or 'json' (got ${JSON.stringify(serializer)})`);
  const queueClass = options.queueClass ?? 'priority';
  if (!QUEUE_CLASSES.includes(queueClass)) {
    throw new InvalidOptionsError(`queueClass must be 'priority', 'fifo' or 'lifo' (scrapy-redis SCHEDULER_QUEUE_CLASS; got ${JSON.stringify(queueClass)})`);
  }
  for (const name of ['uniqueKey', 'onProgress'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw new InvalidOptionsError(`${name} must be a function`);
  }
  return {
    key: options.key,
    serializer,
    queueClass,
    batchSize: intIn('batchSize', options.batchSize, 1, 10_000, 500),
    pauseMs: intIn('pauseMs', options.pauseMs, 0, 60_000, 0),
    uniqueKey: options.uniqueKey,
    onProgress: options.onProgress,
  };
}

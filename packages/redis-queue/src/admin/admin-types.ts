import type { RedisOptions } from 'ioredis';
import type { RedisConnectionOption } from '../core/connection.js';
import type { HandledStoreInfo } from './handled-store-info.js';

// The shapes RedisQueueAdmin takes and returns (re-exported by redis-queue-admin.ts and the package root).

/** Options of {@link RedisQueueAdmin}. */
export interface RedisQueueAdminOptions {
  /** A `redis://` URL, or an ioredis `Redis` or `Cluster` (never closed by this package).
   * @defaultValue `process.env.REDIS_URL`, else `'redis://127.0.0.1:6379'` */
  redis?: RedisConnectionOption;
  /** Extra ioredis options for a connection created from a URL. */
  redisOptions?: RedisOptions;
  /** Seconds the first connect of a connection created from a URL may take before an operation rejects with
   * {@link RedisUnreachableError}; 0.001 to 3600. @defaultValue 10 */
  connectTimeoutSecs?: number;
  /** Seconds a lost connection may take to come back before operations reject with {@link RedisUnreachableError};
   * 0.001 to 604,800. @defaultValue 60 */
  reconnectTimeoutSecs?: number;
  /** Key prefix the workers use. @defaultValue 'crawlee' */
  keyPrefix?: string;
  /** The queue name. */
  name: string;
  /** The start-URL feed list, for requeueing feed dead letters. @defaultValue `<name>:start_urls` */
  startUrlsKey?: string;
  /** The workers' `politeness.hostKey`, for a polite queue: the requests {@link RedisQueueAdmin.requeueDeadLetters},
   * {@link RedisQueueAdmin.requeueFailed} and {@link RedisQueueAdmin.takeOverScrapyRequests} put back go into the
   * queue of the host this function gives for their URL, as if a worker had added them. Pass the same function as
   * the workers (a different one puts requests on hosts no worker schedules together). Unused on an unpolite queue.
   * @defaultValue the default host key: the URL's lower-cased host name, with the port when not the scheme's default */
  hostKey?: (url: string) => string;
}

/** Counters of a queue. */
export interface RedisQueueStats {
  /** Requests in the queue (pending + handled; dead letters excluded). */
  total: number;
  /** Unhandled requests, locked ones included. */
  pending: number;
  /** Requests under an unexpired lock right now. */
  locked: number;
  /** Handled requests. */
  handled: number;
  /** Entries in the dead letters. */
  deadLetters: number;
}

/** What a queue costs and keeps (`RedisQueueAdmin.storage()`). */
export interface RedisQueueStorage extends HandledStoreInfo {
  /** Bytes of Redis memory the queue's keys use (measured at most 10 s ago); undefined when `MEMORY USAGE` is
   * refused. */
  memoryBytes?: number;
}

/** One dead letter: an entry no worker could read. */
export interface DeadLetter {
  /** Dead-letter id: the request id for queue entries, `feed-<n>` for start-URL feed items. */
  id: string;
  /** The raw bytes, exactly as found. */
  raw: Buffer;
  /** Why it could not be read. */
  reason: string;
  /** Where it came from: a queue entry, a start-URL feed item, or a scrapy-redis frontier entry a takeover could not
   * read (`takeover-<sha1>`; requeue it with a `repair` function). */
  source: 'queue' | 'feed' | 'takeover';
  /** When it was moved (Redis time). */
  at: Date;
  /** For a request dead-lettered by `maxStalls`: how many times its lock expired while it was being processed. */
  stalls?: number;
}

/** Options of {@link RedisQueueAdmin.requeueDeadLetters}. */
export interface RequeueDeadLettersOptions {
  /** Only these dead-letter ids. @defaultValue all */
  ids?: string[];
  /** Turn a dead letter into a request to store instead of its raw bytes; return undefined to leave it dead.
   * Without it the raw bytes go back unchanged (e.g. after upgrading workers that can read them). */
  repair?: (letter: DeadLetter) => { url: string; uniqueKey: string; [key: string]: unknown } | undefined;
}

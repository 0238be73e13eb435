import type { ConnectionHandle } from '../redis/connection.js';
import type { WorkerStatsRegistry } from '../stats/worker-stats-registry.js';

/** Settings of the start-URL feed of a queue (scrapy-redis `<name>:start_urls`). */
export interface StartUrlFeedSettings {
  /** The Redis list to read; gets the queue name. */
  key: (queueName: string) => string;
  /** Items moved per drain. */
  batchSize: number;
  /** When true every feed item is enqueued even if its uniqueKey was seen (scrapy-redis' `dont_filter=True`). */
  alwaysEnqueue: boolean;
}

/** What every queue client of one storage client shares. */
export interface QueueContext {
  readonly connection: ConnectionHandle;
  readonly keyPrefix: string;
  /** Added to Redis TIME in every script (tests only). */
  readonly clockOffsetMs: () => number;
  /** How `prolongRequestLock` computes the new expiry. */
  readonly prolongLockFrom: 'expiry' | 'now';
  /** Requests per add script call. */
  readonly addBatchSize: number;
  /** Expired locks recovered per `listAndLockHead`. */
  readonly recoverLimit: number;
  /** Lock expiries of a started request after which it is dead-lettered; 0: not counted. */
  readonly maxStalls: number;
  /** Serve `getRequest` from the JSON `listAndLockHead` returned (saves one round trip per request). */
  readonly cacheLockedRequests: boolean;
  /** Answer `prolongRequestLock` of a lock this client took less than half a lock time ago at once and extend it in
   * the background. */
  readonly fastProlong: boolean;
  readonly startUrls?: StartUrlFeedSettings;
  /** Publishers of worker stats (src/stats/); undefined when off. */
  readonly workerStats?: WorkerStatsRegistry;
}

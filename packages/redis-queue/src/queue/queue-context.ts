import type { Heartbeat } from '../liveness/heartbeat.js';
import type { LivenessSettings } from '../liveness/liveness-options.js';
import type { ProducerLease } from '../lease/producer-lease.js';
import type { ConnectionHandle } from '../core/connection.js';
import type { PolitenessSettings } from '../politeness/politeness-options.js';
import type { HandledStoreSettings } from './handled-store.js';
import type { WorkerStatsRegistry } from '../stats/worker-stats-registry.js';
import type { DurabilitySettings } from '../core/replica-wait.js';
import type { StartUrlFeedSettings } from '../feed/feed-options.js';

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
  /** What a request that failed for good becomes: 'keep' (handled, seen) or 'forget' (leaves the queue). */
  readonly failedRequests: 'keep' | 'forget';
  /** What a handled request leaves behind (`handledRequests`), recorded in the queue's meta at creation. */
  readonly handledStore: HandledStoreSettings;
  /** Producer leases taken through this storage client's queues (`holdOpen`), released by its `close()`. */
  readonly producerLeases: Set<ProducerLease>;
  /** Replicas that must acknowledge adds and updates (`WAIT`); undefined when off (the `durability` option). */
  readonly durability?: DurabilitySettings;
  /** Sub-queues of each queue (`shards` option; 1: today's single hash tag). */
  readonly shards: number;
  /** What a request's shard is a function of (src/shard/shard-of.ts). */
  readonly shardBy: 'host' | 'uniqueKey';
  /** Publishers of worker stats (src/stats/); undefined when off. */
  readonly workerStats?: WorkerStatsRegistry;
  /** Worker liveness (src/liveness/): heartbeat interval and window; undefined when off (locks last their lock time). */
  readonly liveness?: LivenessSettings;
  /** How long one `listAndLockHead` waits for a polite queue's next host to open, ms (0: answers at once). */
  readonly maxHostWaitMs: number;
  /** Answer an idle client's repeated empty calls locally for a growing step (`queue/idle-backoff.ts`). */
  readonly idleBackoff: boolean;
  /** The heartbeats started by this storage client's queue clients (stopped by its `close()`). */
  readonly heartbeats: Set<Heartbeat>;
  /** Fleet-wide politeness (src/politeness/); undefined when off. */
  readonly politeness?: PolitenessSettings;
}

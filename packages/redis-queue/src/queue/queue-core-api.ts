import type { LockHeadResult } from '../politeness/lock-when-open.js';
import type {
  ProcessedRequest,
  QueueHead,
  QueueOperationInfo,
  RequestQueueInfo,
  RequestSchema,
  UpdateRequestSchema,
} from '../core/crawlee-types.js';
import type { PolitenessStats } from '../politeness/politeness-stats.js';
import type { QueueKeys } from '../core/keys.js';
import type { StoredRequest } from './lock-ledger.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import type { ProducerLease } from '../lease/producer-lease.js';
import type { UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
import type { WorkerStatsRecorder } from '../stats/worker-stats-recorder.js';
import type { EnqueueFilterSlot } from '../filter/enqueue-filter-slot.js';
import type { QueueLocks } from './queue-locks.js';

/**
 * The one queue interface: what the Crawlee adapter calls on a queue core. `QueueCore` (one hash tag) and
 * `ShardedQueueCore` (src/shard/: S QueueCores, one per shard) both implement it, so the adapter is the same
 * one-line calls for both. It names the parts' own types, not QueueCore's, so QueueCore can implement it without an
 * import circle.
 */
export interface QueueCoreApi {
  readonly id: string;
  readonly clientKey: string;
  /** The queue's keys (for a sharded queue: the root's, whose meta records the shard count). */
  readonly keys: QueueKeys;
  /** Scripts for producer leases and the connection (for a sharded queue: shard 0's, see ShardedQueueCore). */
  readonly scripts: QueueScripts;
  readonly producerLeases: Set<ProducerLease>;
  readonly addPath: { uniqueKeyTransform?: UniqueKeyTransform };
  /** This worker's stats counters (`close()` publishes its last counters, state `stopped`). */
  readonly workerStats: WorkerStatsRecorder;
  readonly filter: Pick<EnqueueFilterSlot, 'canAttach' | 'attach' | 'detach'>;
  readonly locks: Pick<QueueLocks, 'prolong' | 'refresh' | 'release' | 'releaseAll'>;
  ensureCreated(name: string | undefined): Promise<void>;
  info(): Promise<RequestQueueInfo | undefined>;
  drop(): Promise<void>;
  listHead(limit: number): Promise<QueueHead>;
  add(requests: readonly RequestSchema[], forefront: boolean): Promise<ProcessedRequest[]>;
  getRequest(id: string): Promise<StoredRequest | undefined>;
  update(request: UpdateRequestSchema, forefront: boolean): Promise<QueueOperationInfo>;
  deleteRequest(id: string): Promise<unknown>;
  lockHead(limit: number, lockSecs: number): Promise<LockHeadResult>;
  backOffHost(host: string, delaySecs: number): Promise<void>;
  hostKeyOf(url: string): string;
  politenessStats(top?: number): Promise<PolitenessStats>;
}

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
import type { QueueCore } from './queue-core.js';

/**
 * What the Crawlee adapter calls on a queue core: {@link QueueCore} (one hash tag) and `ShardedQueueCore`
 * (src/shard/: S QueueCores, one per shard) both offer it, so the adapter is the same one-line calls for both.
 */
export interface QueueCoreApi {
  readonly id: string;
  readonly clientKey: string;
  /** The queue's keys (for a sharded queue: the root's, whose meta records the shard count). */
  readonly keys: QueueKeys;
  /** Scripts for producer leases and the connection (for a sharded queue: shard 0's, see ShardedQueueCore). */
  readonly scripts: QueueCore['scripts'];
  readonly producerLeases: QueueCore['producerLeases'];
  readonly addPath: { uniqueKeyTransform?: QueueCore['addPath']['uniqueKeyTransform'] };
  /** This worker's stats counters (`close()` publishes its last counters, state `stopped`). */
  readonly workerStats: QueueCore['workerStats'];
  readonly filter: Pick<QueueCore['filter'], 'canAttach' | 'attach' | 'detach'>;
  readonly locks: Pick<QueueCore['locks'], 'prolong' | 'refresh' | 'release' | 'releaseAll'>;
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

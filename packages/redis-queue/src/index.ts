/**
 * crawlee-redis-queue: a Redis request queue for Crawlee that many processes share, with owned locks that come back
 * when a worker dies, atomic dedup by uniqueKey, dead letters, a scrapy-redis start-URL feed, and Redis Cluster
 * support. Only what users call is exported here; internals for tests and sibling packages are behind
 * `crawlee-redis-queue/internal` (no compatibility promise).
 * @packageDocumentation
 */
export { openRedisRequestQueue, type OpenRedisRequestQueueOptions } from './open-redis-request-queue.js';
export { RedisRequestQueue } from './storage/redis-request-queue.js';
export {
  RedisStorageClient,
  type RedisStorageClientOptions,
  type StartUrlFeedOptions,
  type StartUrlFeedLayout,
  type StartUrlItemFormat,
} from './storage/redis-storage-client.js';
export { RedisRequestQueueClient } from './storage/redis-request-queue-client.js';
export type { HandledRequestsMode, HandledBloomOptions } from './queue/handled-store.js';
export type { HandledStoreInfo } from './admin/handled-store-info.js';
export type { RedisRequestQueueInfo } from './core/crawlee-types.js';
export {
  RedisQueueAdmin,
  type DeadLetter,
  type RedisQueueAdminOptions,
  type RedisQueueStats,
  type RedisQueueStorage,
  type RequeueDeadLettersOptions,
} from './admin/redis-queue-admin.js';
export { assertKeyPrefix, defaultStartUrlsKey, type QueueKeys } from './core/keys.js';
export { listQueueNames } from './core/queue-index.js';
export { hashTagOf } from '@crawlee-distributed/redis-kit';
export type {
  ScrapyQueueClass,
  ScrapySerializer,
  ScrapyTakeoverRequest,
  TakeOverScrapyRequestsOptions,
  TakeOverScrapyRequestsResult,
} from './takeover/index.js';
export type { ProducerLease, ProducerLeaseOptions } from './lease/producer-lease.js';
export type { FailedRequest, ListFailedOptions, RequeueFailedOptions } from './admin/failed-requests.js';
export type { PolitenessOptions, RetryBackoffOptions } from './politeness/politeness-options.js';
export type { PolitenessStats } from './politeness/politeness-stats.js';
export type { WorkerStatsOptions } from './stats/worker-stats-options.js';
export type { WorkerInfo } from './stats/read-worker-stats.js';
export type { CrawlStats } from './stats/read-crawl-stats.js';
export { createMetricsRegistry, type MetricsRegistryOptions } from './metrics/create-metrics-registry.js';
export { startMetricsServer } from './metrics/metrics-server.js';
export type { RedisConnection, RedisConnectionOption } from './core/connection.js';
export type { AttachEnqueueFilterOptions, EnqueueFilterSource, UniqueKeyTransform } from '@crawlee-distributed/redis-kit/seam';
// Listed one by one (not `export *` of errors/index.ts), so a new error class is a deliberate public name.
export {
  RedisQueueError,
  InvalidRequestError,
  InvalidOptionsError,
  RequestNotFoundError,
  RequestAlreadyHandledError,
  LockLostError,
  UnsupportedOperationError,
  StartUrlFeedTypeError,
  EnqueueFilterIncompatibleError,
  HandledModeMismatchError,
  DedupStoreRequiredError,
  RedisUnreachableError,
  RedisAuthError,
  RedisPermissionError,
  RedisDatabaseError,
  RedisTlsError,
  RedisScriptError,
  RedisFailoverTimeoutError,
  ReplicasNotAcknowledgedError,
  TakeoverSourceChangedError,
  PolitenessMismatchError,
  QueueMissingError,
  KeyTypeError,
  ShardLayoutMismatchError,
  type ShardLayout,
} from './errors/index.js';
export type { DurabilityOptions } from './options/durability-option.js';
export { maskRedisUrl } from './core/mask-redis-url.js';
export { PACKAGE_VERSION } from './core/version.js';
export {
  RedisDatasetClient,
  RedisDatasetCollectionClient,
  exportDataset,
  datasetKeys,
  datasetIndexKey,
  InvalidDatasetItemError,
  DatasetItemUnreadableError,
  DatasetNotFoundError,
  type ExportDatasetOptions,
  type ExportProgress,
  type DatasetKeys,
} from './dataset/index.js';
export { startDashboard, type DashboardHandle, type DashboardOptions } from './dashboard/index.js';
export { attachScrapyStats } from './scrapy/attach-scrapy-stats.js';
export { ScrapyStatsWriter, type ScrapyStatsOptions } from './scrapy/scrapy-stats-writer.js';

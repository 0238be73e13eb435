/**
 * crawlee-redis-queue: a Redis request queue for Crawlee that many processes share, with owned locks that come back
 * when a worker dies, atomic dedup by uniqueKey, dead letters, a scrapy-redis start-URL feed, and Redis Cluster
 * support.
 * @packageDocumentation
 */
export { openRedisRequestQueue, type OpenRedisRequestQueueOptions } from './open-redis-request-queue.js';
export {
  RedisStorageClient,
  type RedisStorageClientOptions,
  type StartUrlFeedOptions,
} from './storage/redis-storage-client.js';
export { RedisRequestQueueCollectionClient } from './storage/request-queue-collection-client.js';
export { RedisRequestQueueClient } from './queue/redis-request-queue-client.js';
export {
  RedisQueueAdmin,
  type DeadLetter,
  type RedisQueueAdminOptions,
  type RedisQueueStats,
  type RequeueDeadLettersOptions,
} from './admin/redis-queue-admin.js';
export type { WorkerStatsOptions } from './stats/worker-stats-options.js';
export type { WorkerInfo } from './stats/read-worker-stats.js';
export type { CrawlStats } from './stats/read-crawl-stats.js';
export { createMetricsRegistry, type MetricsRegistryOptions } from './metrics/create-metrics-registry.js';
export { startMetricsServer } from './metrics/metrics-server.js';
export { requestIdOf } from './queue/request-codec.js';
export { parseStartUrlItem, type ParsedFeedItem } from './feed/parse-start-url.js';
export { queueKeys, queueIndexKey, defaultStartUrlsKey, type QueueKeys } from './redis/keys.js';
export { clusterSlot, hashTagOf } from './redis/cluster-slot.js';
export type { RedisConnection, RedisConnectionOption } from './redis/connection.js';
export {
  ENQUEUE_FILTER_SINK,
  ENQUEUE_FILTER_SOURCE,
  type AttachEnqueueFilterOptions,
  type EnqueueFilterOp,
  type EnqueueFilterPlan,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
} from './enqueue-filter.js';
export * from './errors/index.js';
export { PACKAGE_VERSION } from './version.js';

import type { StorageClient } from 'crawlee';

// `crawlee` re-exports StorageClient but not the client interfaces; derive them so `crawlee` stays the only peer.

/** Crawlee's `RequestQueueClient` (from `@crawlee/types`). */
export type RequestQueueClient = ReturnType<StorageClient['requestQueue']>;
/** Crawlee's `RequestQueueCollectionClient`. */
export type RequestQueueCollectionClient = ReturnType<StorageClient['requestQueues']>;
/** Crawlee's `RequestQueueInfo`. */
export type RequestQueueInfo = NonNullable<Awaited<ReturnType<RequestQueueClient['get']>>>;

/** Crawlee's `RequestQueueInfo` plus what a Redis queue knows besides. */
export interface RedisRequestQueueInfo extends RequestQueueInfo {
  /** Bytes of Redis memory the queue's keys use (`MEMORY USAGE`, index buckets sampled), measured at most 10 s ago;
   * undefined when the server refused `MEMORY USAGE` (ACL). */
  memoryBytes?: number;
}
/** Crawlee's `RequestSchema` (what `addRequest` receives). */
export type RequestSchema = Parameters<RequestQueueClient['addRequest']>[0];
/** Crawlee's `UpdateRequestSchema`. */
export type UpdateRequestSchema = Parameters<RequestQueueClient['updateRequest']>[0];
/** Crawlee's `RequestOptions` (the `{ forefront }` bag). */
export type RequestOptions = NonNullable<Parameters<RequestQueueClient['addRequest']>[1]>;
/** Crawlee's `QueueOperationInfo`. */
export type QueueOperationInfo = Awaited<ReturnType<RequestQueueClient['addRequest']>>;
/** Crawlee's `BatchAddRequestsResult`. */
export type BatchAddRequestsResult = Awaited<ReturnType<RequestQueueClient['batchAddRequests']>>;
/** Crawlee's `ProcessedRequest`. */
export type ProcessedRequest = BatchAddRequestsResult['processedRequests'][number];
/** Crawlee's `QueueHead`. */
export type QueueHead = Awaited<ReturnType<RequestQueueClient['listHead']>>;
/** Crawlee's `RequestQueueHeadItem`. */
export type RequestQueueHeadItem = QueueHead['items'][number];
/** Crawlee's `ListOptions`. */
export type ListOptions = NonNullable<Parameters<RequestQueueClient['listHead']>[0]>;
/** Crawlee's `ListAndLockOptions`. */
export type ListAndLockOptions = Parameters<RequestQueueClient['listAndLockHead']>[0];
/** Crawlee's `ListAndLockHeadResult`. */
export type ListAndLockHeadResult = Awaited<ReturnType<RequestQueueClient['listAndLockHead']>>;
/** Crawlee's `ProlongRequestLockOptions`. */
export type ProlongRequestLockOptions = Parameters<RequestQueueClient['prolongRequestLock']>[1];
/** Crawlee's `ProlongRequestLockResult`. */
export type ProlongRequestLockResult = Awaited<ReturnType<RequestQueueClient['prolongRequestLock']>>;
/** Crawlee's `DeleteRequestLockOptions`. */
export type DeleteRequestLockOptions = NonNullable<Parameters<RequestQueueClient['deleteRequestLock']>[1]>;
/** Crawlee's `StorageClient`. */
export type { StorageClient };

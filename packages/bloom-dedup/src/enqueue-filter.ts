/**
 * The enqueue-filter seam with `crawlee-redis-queue`, declared once in the private kit
 * (`packages/redis-kit/src/seam/enqueue-filter.ts`, bundled at build time) and re-exported here.
 */
export {
  ENQUEUE_FILTER_SINK,
  ENQUEUE_FILTER_SOURCE,
  UNIQUE_KEY_TRANSFORM,
  type AttachEnqueueFilterOptions,
  type EnqueueFilterOp,
  type EnqueueFilterPlan,
  type EnqueueFilterRequest,
  type EnqueueFilterSink,
  type EnqueueFilterSource,
} from '@crawlee-distributed/redis-kit';

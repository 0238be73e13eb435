/**
 * `@crawlee-distributed/redis-kit`: the Redis plumbing and the seams the published packages share. Private; each
 * package bundles it at build time (tsup `noExternal`), so nothing here is a runtime dependency of a tarball.
 * @packageDocumentation
 */
export { hashTagOf, hasHashTag, sameSlotKey, slotOf } from './slot/hash-slot.js';
export { maskRedisUrl } from './url/mask-redis-url.js';
export { nearestName, unknownOptionProblem, type KnownOptions } from './options/known-options.js';
export { shardKeyOf, shardOf, shardOfKey, type ShardBy } from './shard/shard-of.js';
export { bloomFalsePositiveRate, bloomFillRatio, bloomShape, MAX_REDIS_BLOCK_BITS, type BloomShape } from './bloom/bloom-shape.js';
export { CrawleeRedisError } from './errors/crawlee-redis-error.js';
export { RedisUnreachableError, type RedisUnreachableErrorOptions } from './errors/redis-unreachable-error.js';
export { RedisAuthError } from './errors/redis-auth-error.js';
export { RedisPermissionError, type PermissionDenied } from './errors/redis-permission-error.js';
export { RedisDatabaseError } from './errors/redis-database-error.js';
export { RedisTlsError } from './errors/redis-tls-error.js';
export { RedisFailoverTimeoutError } from './errors/redis-failover-timeout-error.js';
export { isFailoverError, retryThroughFailover, type FailoverRetryOptions } from './connection/failover-retry.js';
export { classifyConnectError, permissionErrorOf } from './connection/classify-redis-error.js';
export {
  isCluster,
  looksLikeIoredis,
  resolveRedisTarget,
  type RedisConnection,
  type RedisConnectionOption,
  type RedisTarget,
} from './connection/redis-connection.js';
export { DEFAULT_CONNECT_TIMEOUT_SECS, DEFAULT_RECONNECT_TIMEOUT_SECS, OWNED_CONNECTION_OPTIONS } from './connection/connection-policy.js';
export { ConnectionHandle, type ConnectionHandleOptions } from './connection/connection-handle.js';
export {
  createScriptRegistry,
  type ScriptArg,
  type ScriptRegistry,
  type ScriptRegistryOptions,
} from './scripts/script-registry.js';
export { mapReplyError, type ReplyErrorFactory } from './scripts/map-reply-error.js';
export * from './seam/index.js';

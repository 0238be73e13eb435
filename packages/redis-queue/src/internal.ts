/**
 * crawlee-redis-queue/internal: building blocks for this repository's tests and sibling packages. Not part of the
 * public API: names and shapes may change in any release.
 * @packageDocumentation
 */
export { RedisRequestQueueCollectionClient } from './storage/request-queue-collection-client.js';
export { QueueCore } from './queue/queue-core.js';
export { QueueScripts } from './queue/queue-scripts.js';
export { requestIdOf, encodeRequest, decodeRequest } from './queue/request-codec.js';
export { parseStartUrlItem, type ParsedFeedItem } from './feed/parse-start-url.js';
export { parseScrapyRedisItem } from './feed/scrapy-redis-item.js';
export { queueKeys, queueIndexKey } from './redis/keys.js';
export { hashTagOf, slotOf } from '@crawlee-distributed/redis-kit';
export { commandName } from './redis/scripts.js';
export { mapScriptError } from './errors/map-script-error.js';
// The enqueue-filter and uniqueKey seams, declared once in the private kit (bundled at build time).
export * from '@crawlee-distributed/redis-kit/seam';
export * from './queue/reply-codes.js';
export { readScrapyRequest, toCrawleeRequest, unpickle } from './takeover/index.js';

/**
 * crawlee-redis-queue/internal: building blocks for this repository's tests and sibling packages. Not part of the
 * public API: names and shapes may change in any release.
 * @packageDocumentation
 */
export { RedisRequestQueueCollectionClient } from './storage/request-queue-collection-client.js';
export { QueueCore } from './queue/queue-core.js';
export { QueueScripts } from './core/queue-scripts.js';
export { requestIdOf, encodeRequest, decodeRequest } from './core/request-codec.js';
export { parseStartUrlItem, type ParsedFeedItem } from './feed/parse-start-url.js';
export { parseScrapyRedisItem } from './feed/scrapy-redis-item.js';
export { queueKeys, queueIndexKey } from './core/keys.js';
export { hashTagOf, slotOf } from '@crawlee-distributed/redis-kit';
export { commandName } from './core/scripts.js';
export { mapScriptError } from './core/map-script-error.js';
// The enqueue-filter and uniqueKey seams, declared once in the private kit (bundled at build time).
export * from '@crawlee-distributed/redis-kit/seam';
export * from './core/reply-codes.js';
export { readScrapyRequest, toCrawleeRequest, unpickle } from './takeover/index.js';

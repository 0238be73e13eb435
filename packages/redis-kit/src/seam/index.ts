/**
 * `@crawlee-distributed/redis-kit/seam`: the shapes the published packages meet through (the enqueue-filter seam and
 * the uniqueKey seam). No imports, no Redis: crawlee-scrapy-fingerprint bundles this entry alone, without ioredis.
 * @packageDocumentation
 */
export * from './enqueue-filter.js';
export * from './unique-key.js';

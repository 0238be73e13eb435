/**
 * The uniqueKey seam between `crawlee-scrapy-fingerprint` and `crawlee-redis-queue` (docs/enqueue-filter-seam.md,
 * version `@1`). Neither package depends on the other; both meet through `Symbol.for`.
 * @packageDocumentation
 */

/**
 * Set on a crawlee-redis-queue `RedisRequestQueue` (every add path of that queue applies a registered transform:
 * `addRequest(s)`, `enqueueLinks`, the start-URL feed) and on its `RedisRequestQueueClient` (the paths that do not
 * pass through a `RequestQueue` object apply it: the start-URL feed, and direct client adds without a uniqueKey).
 */
export const UNIQUE_KEY_SINK = Symbol.for('crawlee-distributed/unique-key-sink@1');

/**
 * Gives a request its uniqueKey: takes a URL string, a plain request-options object or a Crawlee `Request`, and
 * returns the same kind of value with `uniqueKey` set when it had none (a `Request` whose uniqueKey Crawlee computed
 * counts as having none); an explicit uniqueKey is kept. Synchronous, must not touch Redis. May throw for a URL it
 * rejects (the add then fails before anything is written).
 */
export type UniqueKeyTransform = <T>(requestLike: T) => T;

/** Where a uniqueKey transform (e.g. crawlee-scrapy-fingerprint's `withScrapyFingerprint`) is registered. */
export interface UniqueKeySink {
  /** From now on the add paths of this queue apply `transform`; `undefined` removes it. */
  setUniqueKeyTransform(transform: UniqueKeyTransform | undefined): void;
}

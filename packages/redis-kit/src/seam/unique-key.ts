/**
 * The uniqueKey seam between `crawlee-scrapy-fingerprint` (the source: a uniqueKey transform) and
 * `crawlee-redis-queue` (the sink: a queue whose every add path applies it) and `crawlee-bloom-dedup` (`withDedup`
 * reads the transform to compute dedup keys), version `@1`. Declared once, here; each package bundles it, and none
 * imports another. They meet through `Symbol.for` names and structural types, so two copies of a package (ESM and
 * CJS) or two releases still match. `docs/enqueue-filter-seam.md` describes the semantics; a change of these shapes
 * bumps the `@1` suffix.
 * @packageDocumentation
 */

/**
 * Set on a crawlee-redis-queue `RedisRequestQueue` (every add path of that queue applies a registered transform:
 * `addRequest(s)`, `enqueueLinks`, the start-URL feed) and on its `RedisRequestQueueClient` (the paths that do not
 * pass through a `RequestQueue` object apply it: the start-URL feed, and direct client adds without a uniqueKey).
 */
export const UNIQUE_KEY_SINK: unique symbol = Symbol.for('crawlee-distributed/unique-key-sink@1') as never;

/** Set on a queue by crawlee-scrapy-fingerprint's `withScrapyFingerprint`: its uniqueKey transform (fills `uniqueKey`
 * when missing), applied by `withDedup` before it computes dedup keys. */
export const UNIQUE_KEY_TRANSFORM: unique symbol = Symbol.for('crawlee-distributed/unique-key-transform@1') as never;

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

/**
 * The sink an object offers under {@link UNIQUE_KEY_SINK}, if any (checked by shape: a foreign value there is
 * ignored, never called).
 * @param target - a queue or queue client, or anything else
 * @returns the sink, or undefined
 */
export function uniqueKeySinkOf(target: unknown): UniqueKeySink | undefined {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined;
  const sink = (target as Record<symbol, unknown>)[UNIQUE_KEY_SINK] as UniqueKeySink | undefined;
  return sink && typeof sink.setUniqueKeyTransform === 'function' ? sink : undefined;
}

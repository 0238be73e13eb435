/**
 * The uniqueKey seam with crawlee-redis-queue (docs/enqueue-filter-seam.md, `@1`). This package declares the shapes
 * itself; neither package imports the other, they meet through `Symbol.for`.
 */

/** Set by crawlee-redis-queue on its `RedisRequestQueue` (every add path of the queue applies a registered
 * transform) and on its request queue client (the start-URL feed applies it). */
export const UNIQUE_KEY_SINK = Symbol.for('crawlee-distributed/unique-key-sink@1');

/** Fills `uniqueKey` of a URL string, request options or Crawlee `Request` when it has none (or Crawlee's own). */
export type UniqueKeyTransform = <T>(requestLike: T) => T;

/** Where a uniqueKey transform is registered. */
export interface UniqueKeySink {
  setUniqueKeyTransform(transform: UniqueKeyTransform | undefined): void;
}

/** The sink an object offers under {@link UNIQUE_KEY_SINK}, if any. @param target - a queue or queue client */
export function uniqueKeySinkOf(target: unknown): UniqueKeySink | undefined {
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined;
  const sink = (target as Record<symbol, unknown>)[UNIQUE_KEY_SINK] as UniqueKeySink | undefined;
  return sink && typeof sink.setUniqueKeyTransform === 'function' ? sink : undefined;
}

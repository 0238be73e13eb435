import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Adds made through a `RedisRequestQueue` are counted there, once per request, whoever answered "already seen"
 * (Crawlee's per-process request cache, the queue's uniqueKey check, the dedup store): the one figure of duplicates
 * filtered. The client's add path, which that queue calls, then counts nothing of those adds again; it counts the
 * adds that reach it directly (the start-URL feed, a plain `RequestQueue` on the storage client).
 */
const insideQueue = new AsyncLocalStorage<true>();

/** Runs `add` as a queue-level add (its client-level duplicates are not counted again). @param add - the add */
export function countedByQueue<T>(add: () => Promise<T>): Promise<T> {
  return insideQueue.run(true, add);
}

/** True inside {@link countedByQueue}. */
export function insideQueueLevelAdd(): boolean {
  return insideQueue.getStore() === true;
}

import { log, RequestState, type Request } from 'crawlee';
import type { DedupStore } from '../dedup-store.js';

type Handled = { markRequestHandled(request: Request): Promise<unknown> };

/**
 * True when Crawlee marks a request handled because it failed for good: its retries are used up (or it was
 * `noRetry`) and `_requestFunctionErrorHandler` calls `markRequestHandled` while the request is still in
 * `RequestState.ERROR_HANDLER` (Crawlee 3.18; a success is marked in `REQUEST_HANDLER`, a robots.txt skip in
 * `SKIPPED`). `errorMessages` alone would not tell, since a request that succeeded on a retry has them too.
 */
export function failedForGood(request: Request): boolean {
  return request.state === RequestState.ERROR_HANDLER && (request.errorMessages?.length ?? 0) > 0;
}

/**
 * Wraps `markRequestHandled` so that the dedup key of a request that failed for good is forgotten in the store after
 * the queue marked it handled: a later run (a fresh queue) can enqueue and retry it. The key is also remembered in
 * `forgotten`, so a link to it found later in this run does not mark it seen again (the queue itself still has it
 * as handled). Never throws for the store: a throw here would end the crawl, so a failed forget is logged.
 * @param queue - the queue whose method is wrapped in place
 * @param store - a store that can forget
 * @param keyOf - the wrapper's dedup key of a request
 * @param skip - requests that never touched the store (dontFilter)
 * @param forgotten - keys this process forgot
 */
export function forgetFailedRequests(
  queue: Handled,
  store: DedupStore,
  keyOf: (request: Request) => string,
  skip: (request: Request) => boolean,
  forgotten: Set<string>,
): void {
  const original = queue.markRequestHandled.bind(queue);
  queue.markRequestHandled = async (request: Request) => {
    const info = await original(request);
    if (request && failedForGood(request) && !skip(request)) {
      const key = keyOf(request);
      forgotten.add(key);
      try {
        await store.forget?.([key]);
      } catch (error) {
        log.warning(`crawlee-bloom-dedup: forgetting the failed request ${request.url} (key ${key}) failed: ${String(error)}`);
      }
    }
    return info;
  };
}

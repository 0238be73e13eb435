import type { RequestQueue } from 'crawlee';
import type { RunCounters } from './run-counters.js';

async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Wraps the queue's add methods (outermost, after the fingerprint and the dedup wrappers) to count what the fleet
 * offered and what the queue took as new. Offered minus new is the number of duplicates filtered, whichever layer
 * caught them (this process's request cache, the Bloom/set store, or the queue's own uniqueKey check).
 */
export function countOffers(queue: RequestQueue, counters: RunCounters): RequestQueue {
  const addRequests = queue.addRequests.bind(queue);
  const addRequest = queue.addRequest.bind(queue);
  queue.addRequests = (async (requestsLike, options) => {
    // Crawlee also accepts an async iterable here; read it once so it can be both counted and added.
    const requests = Array.isArray(requestsLike) ? requestsLike : await collect(requestsLike);
    const result = await addRequests(requests, options);
    const enqueued = result.processedRequests.filter((r) => !r.wasAlreadyPresent).length;
    await counters.add('offered', requests.length);
    await counters.add('enqueued', enqueued);
    return result;
  }) as RequestQueue['addRequests'];
  queue.addRequest = async (request, options) => {
    const result = await addRequest(request, options);
    await counters.add('offered', 1);
    await counters.add('enqueued', result.wasAlreadyPresent ? 0 : 1);
    return result;
  };
  return queue;
}

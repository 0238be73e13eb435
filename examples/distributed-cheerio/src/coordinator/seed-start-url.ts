import type { RequestQueue } from 'crawlee';
import type { RunCounters } from '../worker/run-counters.js';

/**
 * Offers the start URL to the queue (through the queue's fingerprint and dedup wrappers, like every link) and counts
 * it as offered and enqueued only when the queue takes it as new. A resume re-offers a start URL the queue already
 * holds: that check is no request of the crawl, and the queue's own crawl stats (`crawlee-redis stats`, the
 * dashboard, the metrics) do not count a coordinator's adds either, so counting it here would put the summary's
 * duplicates filtered one above theirs.
 *
 * @returns true when the queue took the start URL as new (a fresh queue)
 */
export async function seedStartUrl(queue: RequestQueue, counters: RunCounters, startUrl: string): Promise<boolean> {
  const result = await queue.addRequests([{ url: startUrl }]);
  const taken = result.processedRequests.some((r) => !r.wasAlreadyPresent);
  if (taken) {
    await counters.add('offered', 1);
    await counters.add('enqueued', 1);
  }
  return taken;
}

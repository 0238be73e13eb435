import { getRequestId, log, type Request, type RequestProvider, type Source } from 'crawlee';
import type { DedupStore } from '../dedup-store.js';

/** What Crawlee's `addRequests` resolves to. */
export type BatchAddRequestsResult = Awaited<ReturnType<RequestProvider['addRequests']>>;
type Processed = BatchAddRequestsResult['processedRequests'][number];

/**
 * How `withDedup` filters in front of a queue that cannot run the store in its own script.
 * - 'claim' (stores that can forget: the exact set): the store's atomic `add` answers first and only the keys it
 *   reports new are enqueued, so of several workers adding one key exactly one enqueues it, a scrapy-redis worker's
 *   `SADD` included. A key whose enqueue fails (throws, or the queue reports it unprocessed) is forgotten again.
 * - 'check' (Bloom stores, which cannot forget): `has`, then enqueue, then `add` the keys the queue now holds, so
 *   a failed enqueue leaves nothing marked seen; an in-flight set makes it exactly-once inside this process, not
 *   across processes.
 */
export type InFrontMode = 'claim' | 'check';

/** What one wrapped queue needs to filter a batch. */
export interface InFrontContext {
  store: DedupStore;
  mode: InFrontMode;
  keyOf: (request: Request) => string;
  /** True for requests that skip the store (dontFilter, or failed and forgotten by this process). */
  skip: (request: Request) => boolean;
  /** Check mode: keys between `has` and `add` in this process. */
  inFlight: Set<string>;
  countFiltered: (count: number) => Promise<void>;
}

/** One dedup key of a batch: the first request with it, and later ones with the same uniqueKey (the queue merges those). */
interface Group {
  key: string;
  uniqueKey: string;
  requests: Request[];
}

function filteredEntry(request: Request): Processed {
  request.id ??= getRequestId(request.uniqueKey);
  return { wasAlreadyPresent: true, wasAlreadyHandled: false, requestId: request.id, uniqueKey: request.uniqueKey };
}

async function forgetAfterFailedEnqueue(store: DedupStore, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await store.forget?.(keys);
  } catch (error) {
    log.warning(
      `crawlee-bloom-dedup: ${keys.length} keys were claimed but their requests did not reach the queue, and forgetting ` +
        `them failed (${String(error)}); they read as seen until you forget them: ${keys.slice(0, 5).join(', ')}`,
    );
  }
}

/**
 * Filters one batch in front of the queue and forwards the rest (see {@link InFrontMode}).
 * @param ctx - the wrapped queue's settings
 * @param candidates - requests, unique-key transform already applied
 * @param passthrough - sources the queue expands itself (`requestsFromUrl`), forwarded unfiltered
 * @param forward - the queue's own add
 * @returns the queue's answer, with one `wasAlreadyPresent: true` entry per filtered request appended
 */
export async function addInFront(
  ctx: InFrontContext,
  candidates: Request[],
  passthrough: Source[],
  forward: (requests: Array<Request | Source>) => Promise<BatchAddRequestsResult>,
): Promise<BatchAddRequestsResult> {
  const bypass: Request[] = [];
  const groups: Group[] = [];
  const byKey = new Map<string, Group>();
  const filtered: Processed[] = [];
  for (const request of candidates) {
    if (ctx.skip(request)) {
      bypass.push(request);
      continue;
    }
    const key = ctx.keyOf(request);
    const group = byKey.get(key);
    if (!group) {
      const created = { key, uniqueKey: request.uniqueKey, requests: [request] };
      byKey.set(key, created);
      groups.push(created);
    } else if (group.uniqueKey === request.uniqueKey) {
      group.requests.push(request);
    } else {
      // Same dedup key, other uniqueKey: a duplicate whatever the store says.
      filtered.push(filteredEntry(request));
    }
  }
  const keys = groups.map((g) => g.key);
  let isNew: boolean[];
  if (keys.length === 0) {
    isNew = [];
  } else if (ctx.mode === 'claim') {
    isNew = await ctx.store.add(keys);
  } else {
    const seen = await ctx.store.has(keys);
    // Synchronous with the answer: two calls of this process never both pass for one key.
    isNew = keys.map((key, i) => !seen[i] && !ctx.inFlight.has(key));
    keys.forEach((key, i) => isNew[i] && ctx.inFlight.add(key));
  }
  const passed: Group[] = [];
  groups.forEach((group, i) => {
    if (isNew[i]) passed.push(group);
    else for (const request of group.requests) filtered.push(filteredEntry(request));
  });
  const passedKeys = passed.map((g) => g.key);
  const outgoing = [...bypass, ...passed.flatMap((g) => g.requests), ...passthrough];
  let inner: BatchAddRequestsResult;
  try {
    try {
      inner = outgoing.length > 0 ? await forward(outgoing) : { processedRequests: [], unprocessedRequests: [] };
    } catch (error) {
      if (ctx.mode === 'claim') await forgetAfterFailedEnqueue(ctx.store, passedKeys);
      throw error;
    }
    // Only requests the queue now holds (new or already there) count as seen; unprocessed ones stay (or become) unseen.
    const held = new Set(inner.processedRequests.map((r) => r.uniqueKey));
    if (ctx.mode === 'claim') {
      await forgetAfterFailedEnqueue(ctx.store, passed.filter((g) => !held.has(g.uniqueKey)).map((g) => g.key));
    } else {
      const record = passed.filter((g) => held.has(g.uniqueKey)).map((g) => g.key);
      if (record.length > 0) await ctx.store.add(record);
    }
  } finally {
    // Check mode: released only once the keys are recorded, so no other call of this process passes in between.
    if (ctx.mode === 'check') for (const key of passedKeys) ctx.inFlight.delete(key);
  }
  await ctx.countFiltered(filtered.length);
  return {
    processedRequests: [...inner.processedRequests, ...filtered],
    unprocessedRequests: inner.unprocessedRequests,
  };
}

import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { QueueScripts } from '../core/queue-scripts.js';
import { encodeRecord, parseStoredRecord, type ParsedRecord, type StoredRecord } from '../core/record-format.js';
import { requestIdOf } from '../core/request-codec.js';
import { REQUEUE_REPLY } from '../core/reply-codes.js';
import { RequeuePoliteness } from '../politeness/requeue-politeness.js';

/** One request that failed for good (Crawlee marked it handled from its error handler after its last retry). */
export interface FailedRequest {
  /** Request id. */
  id: string;
  /** When it failed (Redis time). */
  failedAt: Date;
  /** `'kept'`: still in the queue as handled (`failedRequests: 'keep'`); `'forgotten'`: it left the queue
   * (`'forget'`), only the failed index holds it. */
  state: 'kept' | 'forgotten';
  /** Its URL, uniqueKey, retry count and error messages as stored; undefined when the stored JSON cannot be read. */
  url?: string;
  uniqueKey?: string;
  retryCount?: number;
  errorMessages?: string[];
  /** The request as JSON (`{ ...request, id }`, as 0.1 stored it; Crawlee's defaults filled in for a format-2
   * record), or the stored bytes as text when they cannot be read. */
  json: string;
}

/** Options of `RedisQueueAdmin.failed`. */
export interface ListFailedOptions {
  /** At most this many, oldest failure first; 1 to 10,000. @defaultValue 100 */
  limit?: number;
  /** Skip this many first. @defaultValue 0 */
  offset?: number;
}

/** Options of `RedisQueueAdmin.requeueFailed`. */
export interface RequeueFailedOptions {
  /** Only these request ids. @defaultValue every failed request */
  ids?: string[];
  /** Clear `errorMessages` too. By default they are kept (the history of why it failed; Crawlee appends to it and
   * decides retries from `retryCount` alone). @defaultValue false */
  clearErrorMessages?: boolean;
}

const MAX_LIMIT = 10_000;
const BATCH = 200;

function checkCount(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min || value > (name === 'limit' ? MAX_LIMIT : Number.MAX_SAFE_INTEGER)) {
    throw new InvalidOptionsError(`failed() ${name} must be an integer from ${min}${name === 'limit' ? ` to ${MAX_LIMIT}` : ''} (got ${String(value)})`);
  }
}

/** A record whose uniqueKey came from a marker only counts when the uniqueKey gives the id it is stored under: a
 * marker that does not hold is an unreadable entry (listed with its bytes, skipped by requeueFailed), never a request
 * under a wrong uniqueKey. */
function provenRecord(parsed: ParsedRecord, id: string): ParsedRecord {
  if (!parsed.ok || parsed.uniqueKeyFrom === 'url' || parsed.uniqueKeyFrom === 'field') return parsed;
  const uniqueKey = parsed.fields.uniqueKey as string;
  return requestIdOf(uniqueKey) === id ? parsed : { ok: false, reason: `its ${parsed.uniqueKeyFrom} uniqueKey marker does not give its id ${id}` };
}

async function readFailed(scripts: QueueScripts, ids: string[], failedAt: number[]): Promise<FailedRequest[]> {
  if (ids.length === 0) return [];
  const { redis } = scripts.connection;
  // A kept failed request is handled: its record is in the 'request' mode's done hash, or in the kept failed data
  // ('key', 'bits', which keep no request of their own).
  const [inDone, kept, forgotten] = await scripts.connection.run(() =>
    Promise.all([
      // Bytes: a record whose uniqueKey is a fingerprint holds it as raw bytes.
      redis.hmgetBuffer(scripts.keys.done, ...ids),
      redis.hmgetBuffer(scripts.keys.failedKept, ...ids),
      redis.hmgetBuffer(scripts.keys.failedData, ...ids),
    ]),
  );
  const out: FailedRequest[] = [];
  ids.forEach((id, i) => {
    const stored = forgotten[i] ?? kept[i] ?? inDone[i];
    if (stored === null || stored === undefined) return; // deleted since (admin forget): nothing to show
    const parsed = provenRecord(parseStoredRecord(stored), id);
    const json = parsed.ok ? JSON.stringify({ ...parsed.fields, id }) : stored.toString('utf8');
    const entry: FailedRequest = { id, failedAt: new Date(failedAt[i]!), state: forgotten[i] != null ? 'forgotten' : 'kept', json };
    try {
      const r = JSON.parse(json) as { url?: unknown; uniqueKey?: unknown; retryCount?: unknown; errorMessages?: unknown };
      if (typeof r.url === 'string') entry.url = r.url;
      if (typeof r.uniqueKey === 'string') entry.uniqueKey = r.uniqueKey;
      if (typeof r.retryCount === 'number') entry.retryCount = r.retryCount;
      if (Array.isArray(r.errorMessages)) entry.errorMessages = r.errorMessages.map(String);
    } catch {
      // Foreign bytes: listed with their JSON only; requeueFailed skips them.
    }
    out.push(entry);
  });
  return out;
}

/**
 * Lists failed requests from the failed index: O(log N + limit).
 * @param scripts - the queue's scripts
 * @param options - limit and offset
 * @returns the failed requests, oldest failure first
 * @throws {@link InvalidOptionsError} for a limit outside 1..10,000 or a negative offset
 */
export async function listFailed(scripts: QueueScripts, options: ListFailedOptions = {}): Promise<FailedRequest[]> {
  const limit = options.limit ?? 100;
  const offset = options.offset ?? 0;
  checkCount('limit', limit, 1);
  checkCount('offset', offset, 0);
  const { redis } = scripts.connection;
  const flat = await scripts.connection.run(() => redis.zrange(scripts.keys.failed, String(offset), String(offset + limit - 1), 'WITHSCORES'));
  const ids: string[] = [];
  const at: number[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    ids.push(flat[i]!);
    at.push(Number(flat[i + 1]));
  }
  return readFailed(scripts, ids, at);
}

/** The request as it goes back (its record and URL): no handledAt, retryCount 0, Crawlee's processing state cleared. */
function freshState(json: string, clearErrorMessages: boolean): { record: StoredRecord; url: string } | undefined {
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (request === null || typeof request !== 'object' || typeof request.url !== 'string' || typeof request.uniqueKey !== 'string') return undefined;
  delete request.handledAt;
  request.retryCount = 0;
  if (clearErrorMessages) request.errorMessages = [];
  const crawlee = (request.userData as { __crawlee?: Record<string, unknown> } | undefined)?.__crawlee;
  if (crawlee && typeof crawlee === 'object') delete crawlee.state;
  return { record: encodeRecord(request), url: request.url };
}

/**
 * Puts failed requests back into the queue (pending, at the tail; on a polite queue into their host's queue, the host
 * computed from the URL with `hostKey`) with `retryCount` 0 and no `handledAt`; the counters move exactly (see
 * requeue-failed.lua), one atomic step per page of 200. A request whose uniqueKey was added again since is only
 * removed from the failed index.
 * @param scripts - the queue's scripts
 * @param options - which ids, whether to clear error messages
 * @param hostKey - the workers' `politeness.hostKey` (default: the default host key)
 * @returns requeued, skipped (stored JSON not a request: left in the index) and alreadyQueued counts
 * @throws {@link InvalidRequestError} on a polite queue when `hostKey` fails for a request's URL (its page is not
 *   requeued; pages before it are)
 */
export async function requeueFailed(
  scripts: QueueScripts,
  options: RequeueFailedOptions = {},
  hostKey?: (url: string) => string,
): Promise<{ requeued: number; alreadyQueued: number; skipped: number; missing: number }> {
  const result = { requeued: 0, alreadyQueued: 0, skipped: 0, missing: 0 };
  const { redis } = scripts.connection;
  const politeness = await RequeuePoliteness.of(scripts, hostKey);
  // One script call per page; returns how many of the page were skipped (left in the index).
  const requeuePage = async (page: FailedRequest[]): Promise<number> => {
    const args: Array<string | number | Buffer> = [scripts.offset()];
    const hosts: string[] = [];
    let skipped = 0;
    for (const entry of page) {
      const fresh = freshState(entry.json, options.clearErrorMessages === true);
      if (fresh === undefined) {
        skipped++;
        continue;
      }
      hosts.push(politeness.hostOf(fresh.url)); // throws before the page is sent
      args.push(entry.id, fresh.record);
    }
    result.skipped += skipped;
    if (args.length === 1) return skipped;
    args.push(...politeness.args(hosts));
    const codes = (await scripts.run('requeueFailed', args, { extraKeys: [scripts.keys.failed, scripts.keys.failedData, scripts.keys.failedKept] })) as unknown[];
    for (const code of codes.map(Number)) {
      if (code === REQUEUE_REPLY.REQUEUED) result.requeued++;
      else if (code === REQUEUE_REPLY.ALREADY_QUEUED) result.alreadyQueued++;
      else result.missing++;
    }
    return skipped;
  };
  if (options.ids) {
    for (let start = 0; start < options.ids.length; start += BATCH) {
      const ids = options.ids.slice(start, start + BATCH);
      const scores = await scripts.connection.run(() => redis.zmscore(scripts.keys.failed, ...ids));
      const found = ids.filter((_, i) => scores[i] !== null);
      const at = scores.filter((score): score is string => score !== null).map(Number);
      const page = await readFailed(scripts, found, at);
      result.missing += ids.length - page.length;
      await requeuePage(page);
    }
    return result;
  }
  // Requeued entries leave the index, so the next page starts after the skipped ones only.
  let offset = 0;
  for (;;) {
    const page = await listFailed(scripts, { limit: BATCH, offset });
    if (page.length === 0) break;
    offset += await requeuePage(page);
  }
  return result;
}

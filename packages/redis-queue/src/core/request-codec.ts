import { getRequestId } from 'crawlee';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { RequestQueueHeadItem } from './crawlee-types.js';
import { encodeRecord, parseStoredRecord, type StoredRecord } from './record-format.js';
import { requestProblem } from './request-rules.js';

/** Crawlee's request id of a uniqueKey: sha256, base64 without `+/=`, first 15 characters (Crawlee's own
 * `getRequestId`, the same as MemoryStorage's `uniqueKeyToRequestId`), so ids agree with Crawlee's local caches.
 * @param uniqueKey - the request's uniqueKey */
export function requestIdOf(uniqueKey: string): string {
  return getRequestId(uniqueKey);
}

/** A request ready for the add/update scripts. */
export interface EncodedRequest {
  id: string;
  uniqueKey: string;
  url: string;
  method?: string;
  /** The stored record, format 2 (`record-format.ts`): only the fields that differ from Crawlee's defaults; bytes
   * when its uniqueKey is a fingerprint. */
  record: StoredRecord;
  handled: boolean;
}

function rejectUnserializable(key: string, value: unknown): unknown {
  const kind = typeof value;
  if (kind === 'function' || kind === 'bigint' || kind === 'symbol') {
    throw new InvalidRequestError(
      `request field "${key}" holds a ${kind}, which cannot be stored as JSON; keep only JSON values in userData`,
    );
  }
  return value;
}

/**
 * Validates a request and encodes it as a format-2 record (`record-format.ts`): what `JSON.stringify` of the
 * request would hold (as Crawlee's MemoryStorage stores it), minus the id and every field at Crawlee's default.
 *
 * @param request - a Crawlee `Request` or request schema
 * @param knownIds - ids already checked against their uniqueKeys (id to uniqueKey; e.g. the requests this client
 *   locked): a request whose id and uniqueKey match an entry skips the sha256 of the uniqueKey
 * @returns the id, record and handled state
 * @throws {@link InvalidRequestError} for a missing/invalid url or uniqueKey, an id that does not match the
 *   uniqueKey, a field that breaks Crawlee's `Request` rules (see `request-rules.ts`: e.g. a non-numeric
 *   `retryCount`, `userData` or `headers` that are not objects, a method that is not a string), or a value JSON
 *   cannot hold (function, BigInt, symbol, circular reference)
 */
export function encodeRequest(
  request: { url?: unknown; uniqueKey?: unknown; id?: unknown; handledAt?: unknown; method?: unknown },
  knownIds?: ReadonlyMap<string, string>,
): EncodedRequest {
  if (typeof request !== 'object' || request === null) throw new InvalidRequestError('a request must be an object');
  const { url, uniqueKey } = request;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
    throw new InvalidRequestError(`request url must be an http(s) URL (got ${JSON.stringify(url)})`);
  }
  if (typeof uniqueKey !== 'string' || uniqueKey.length === 0) {
    throw new InvalidRequestError(`request uniqueKey must be a non-empty string (url ${url})`);
  }
  const given = request.id;
  const id = typeof given === 'string' && knownIds?.get(given) === uniqueKey ? given : requestIdOf(uniqueKey);
  if (request.id !== undefined && request.id !== null && request.id !== id) {
    throw new InvalidRequestError(`request id ${JSON.stringify(request.id)} does not match its uniqueKey ${JSON.stringify(uniqueKey)} (expected ${id})`);
  }
  const problem = requestProblem(request);
  if (problem) throw new InvalidRequestError(`request ${url} is not a valid Crawlee request: ${problem}; fix that field before adding it`);
  let record: StoredRecord;
  try {
    // Through JSON first: the record holds exactly what JSON would (toJSON applied, Dates as strings, undefined
    // dropped), and a value JSON cannot hold is refused with the field's name.
    const plain = JSON.parse(JSON.stringify({ ...request, id }, rejectUnserializable)) as Record<string, unknown>;
    record = encodeRecord(plain);
  } catch (error) {
    if (error instanceof InvalidRequestError) throw error;
    throw new InvalidRequestError(`request ${url} cannot be stored as JSON: ${(error as Error).message}`, { cause: error });
  }
  return {
    id,
    uniqueKey,
    url,
    method: typeof request.method === 'string' ? request.method : undefined,
    record,
    handled: request.handledAt !== undefined && request.handledAt !== null,
  };
}

/** A stored request read back, or why it cannot be read. */
export type DecodedRequest =
  | { ok: true; request: Record<string, unknown> & { id: string; url: string; uniqueKey: string } }
  | { ok: false; reason: string };

/**
 * Parses a stored request (a format-2 record, or 0.1's JSON, read for ever) and checks it with the rules of Crawlee's `Request` (`request-rules.ts`), at the moment
 * the entry leaves Redis. Null top-level fields are dropped (as MemoryStorage does: `new Request()` rejects them).
 * A uniqueKey taken from a record's marker (normalized URL, fingerprint) is proven by the id: one that does not give
 * the id is refused, never returned.
 *
 * @param raw - the stored bytes (a Buffer keeps bytes that are not UTF-8 detectable, and a fingerprint's bytes)
 * @param id - the id it is stored under
 * @returns the request, or the reason it is unreadable (for the dead letters)
 */
export function decodeRequest(raw: string | Buffer, id: string): DecodedRequest {
  if (raw.length === 0) return { ok: false, reason: 'empty entry' };
  const parsed = parseStoredRecord(raw);
  if (!parsed.ok) return parsed;
  const request = parsed.fields;
  if (typeof request.url !== 'string' || typeof request.uniqueKey !== 'string') {
    return { ok: false, reason: 'unknown format: no url or uniqueKey' };
  }
  if (request.id !== undefined && request.id !== id) {
    return { ok: false, reason: `stored id ${JSON.stringify(request.id)} differs from key ${id}` };
  }
  for (const [key, field] of Object.entries(request)) if (field === null) delete request[key];
  // Valid JSON is not yet a valid request: what Crawlee's Request constructor (or a later crawl step) would throw on
  // must not reach a worker, or it terminates every worker that takes the entry.
  const problem = requestProblem(request);
  if (problem) return { ok: false, reason: `not a valid Crawlee request: ${problem}` };
  // Crawlee caches a request under getRequestId(uniqueKey) and the next update is stored under that id: an entry kept
  // under another id could never be marked handled where it lives.
  const expected = requestIdOf(request.uniqueKey);
  if (expected !== id) {
    const marker = parsed.uniqueKeyFrom === 'normalized'
      ? ' (its uniqueKey is the normalized URL the record claims: written by a Crawlee whose normalizeUrl differs, or corrupted)'
      : parsed.uniqueKeyFrom === 'fingerprint' ? ' (its uniqueKey is the fingerprint bytes of the record: corrupted)' : '';
    return { ok: false, reason: `stored under id ${id}, but its uniqueKey's request id is ${expected}${marker}` };
  }
  request.id = id;
  return { ok: true, request: request as DecodedRequest & { id: string; url: string; uniqueKey: string } & Record<string, unknown> };
}

/**
 * The head item Crawlee expects from `listHead`/`listAndLockHead`.
 *
 * @param request - a decoded request
 * @returns `{ id, retryCount, uniqueKey, url, method }`
 */
export function toHeadItem(request: { id: string; url: string; uniqueKey: string; retryCount?: unknown; method?: unknown }): RequestQueueHeadItem {
  return {
    id: request.id,
    retryCount: typeof request.retryCount === 'number' ? request.retryCount : 0,
    uniqueKey: request.uniqueKey,
    url: request.url,
    method: (typeof request.method === 'string' ? request.method : 'GET') as RequestQueueHeadItem['method'],
  };
}

import { unpickle, type PyValue } from './unpickle.js';

/** How scrapy-redis serialized the frontier (`SCHEDULER_SERIALIZER`). */
export type ScrapySerializer = 'pickle' | 'json';

/**
 * A Scrapy request as `Request.to_dict()` (Scrapy 2.6+, `scrapy/utils/request.py`; `request_to_dict` before) wrote
 * it, read from one `<spider>:requests` entry. Bytes stay bytes; `meta` and `cbKwargs` are made JSON-safe (bytes as
 * latin-1 text, tuples and sets as arrays, dict keys as text).
 */
export interface ScrapyRequestDict {
  url: string;
  method: string;
  /** Header name to its values, in order (Scrapy's `Headers`: bytes keys to lists of bytes). */
  headers: Array<[Buffer, Buffer[]]>;
  body: Buffer;
  meta: Record<string, unknown>;
  cbKwargs: Record<string, unknown>;
  /** Name of the spider method, or undefined for the default `parse`. */
  callback?: string;
  errback?: string;
  priority: number;
  dontFilter: boolean;
  flags: string[];
  encoding: string;
  cookies: unknown;
  /** `_class` of a Request subclass (e.g. `scrapy.http.request.form.FormRequest`). */
  requestClass?: string;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function text(value: PyValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return undefined;
}

/** Makes a Python value JSON-safe: bytes as latin-1 text, dict keys as text, tuples/sets as arrays. */
export function toJsonSafe(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[Buffer.isBuffer(k) ? k.toString('latin1') : String(k)] = toJsonSafe(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSafe(v)]));
  }
  return value;
}

function field(dict: Map<PyValue, PyValue> | Record<string, unknown>, name: string): PyValue | undefined {
  return dict instanceof Map ? dict.get(name) : (dict[name] as PyValue | undefined);
}

function asBytes(value: unknown, what: string): Buffer {
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  throw new Error(`${what} is neither bytes nor text`);
}

function readHeaders(value: unknown): Array<[Buffer, Buffer[]]> {
  if (value === undefined || value === null) return [];
  const entries: Array<[unknown, unknown]> =
    value instanceof Map ? [...value.entries()] : typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  if (entries.length === 0 && !(value instanceof Map) && (typeof value !== 'object' || Array.isArray(value))) {
    throw new Error('headers is not a dict');
  }
  return entries.map(([name, values]) => {
    const list = Array.isArray(values) ? values : [values];
    return [asBytes(name, 'a header name'), list.map((v) => asBytes(v, `header ${String(name)}`))];
  });
}

function readDict(raw: Buffer, serializer: ScrapySerializer): Map<PyValue, PyValue> | Record<string, unknown> {
  if (serializer === 'pickle') {
    const value = unpickle(raw);
    if (!(value instanceof Map)) throw new Error('the pickle is not a dict (Scrapy pickles request.to_dict())');
    return value;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(raw));
  } catch (error) {
    throw new Error(`not JSON text: ${(error as Error).message}`, { cause: error });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the JSON is not an object');
  return parsed as Record<string, unknown>;
}

/**
 * Reads one scrapy-redis frontier entry.
 *
 * - `pickle` (scrapy-redis's default `picklecompat`: `pickle.dumps(request.to_dict(), protocol=-1)`): protocols 2-5.
 * - `json` (a `SCHEDULER_SERIALIZER` module whose `dumps` is `json.dumps` with bytes written as UTF-8 text, since
 *   `json` alone cannot write bytes): `body` and header names/values are text, taken as UTF-8.
 *
 * @param raw - the entry's bytes
 * @param serializer - how it was written
 * @returns the request dict
 * @throws Error with the reason the entry is not a Scrapy request (it goes to the dead letters with that reason)
 */
export function readScrapyRequest(raw: Buffer, serializer: ScrapySerializer): ScrapyRequestDict {
  const dict = readDict(raw, serializer);
  const url = field(dict, 'url');
  if (typeof url !== 'string' || url.length === 0) throw new Error('no url in the request dict');
  const method = text(field(dict, 'method')) ?? 'GET';
  const priority = field(dict, 'priority') ?? 0;
  if (typeof priority !== 'number' || !Number.isInteger(priority)) throw new Error('priority is not an integer');
  const meta = toJsonSafe(field(dict, 'meta') ?? new Map());
  const cbKwargs = toJsonSafe(field(dict, 'cb_kwargs') ?? new Map());
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new Error('meta is not a dict');
  if (typeof cbKwargs !== 'object' || cbKwargs === null || Array.isArray(cbKwargs)) throw new Error('cb_kwargs is not a dict');
  const flags = field(dict, 'flags') ?? [];
  if (!Array.isArray(flags)) throw new Error('flags is not a list');
  return {
    url,
    method: method.toUpperCase(),
    headers: readHeaders(field(dict, 'headers')),
    body: asBytes(field(dict, 'body'), 'body'),
    meta: meta as Record<string, unknown>,
    cbKwargs: cbKwargs as Record<string, unknown>,
    callback: text(field(dict, 'callback') ?? undefined),
    errback: text(field(dict, 'errback') ?? undefined),
    priority,
    dontFilter: field(dict, 'dont_filter') === true,
    flags: flags.map((f: unknown) => text(f as PyValue) ?? JSON.stringify(f)),
    encoding: text(field(dict, 'encoding')) ?? 'utf-8',
    cookies: toJsonSafe(field(dict, 'cookies') ?? null),
    requestClass: text(field(dict, '_class')),
  };
}

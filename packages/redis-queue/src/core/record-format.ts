import { FINGERPRINT_BYTES, FINGERPRINT_MARK, normalizedUniqueKeyOf, uniqueKeyKind, type UniqueKeyKind } from './unique-key-marker.js';

/**
 * The stored request record, format 2 (docs/compact-frontier.md): only what differs from the defaults a
 * Crawlee 3.18 `Request` gets, so a pending request costs its URL and its userData plus a few bytes.
 *
 * ```
 * record = [ "#" fingerprint ] tag rest-of-url "\n" userData-JSON [ "\n" other-fields-JSON ]
 * tag    = "S": format 2, the URL is "https://" + rest     "H": format 2, "http://" + rest
 *          "V": format 2, the URL verbatim                   "J": format 2, the whole record is one JSON object of
 *                                                                 the fields (a URL holding "\n")
 *          "s", "h", "v": as "S", "H", "V", and the uniqueKey is Crawlee's normalized URL of the URL
 * fingerprint = 20 raw bytes: the uniqueKey is their 40 lowercase hex characters (a Scrapy fingerprint)
 * ```
 * - `userData-JSON` is empty for `{}`; `other-fields-JSON` (absent when empty) holds every other own field whose
 *   value is not the default: `method` "GET", `noRetry` false, `retryCount` 0, `errorMessages` [], `headers` `{}`;
 *   `undefined` and `null` (dropped on read, as MemoryStorage does) are not stored.
 * - The id is never stored: it is the hash field the record is stored under. `uniqueKey` is stored in the other
 *   fields only when it is none of the URL, its normalized form or a fingerprint (`unique-key-marker.ts`).
 * - A fingerprint record is bytes, not text: read records as Buffers.
 * - The first byte is the format version of every stored entry: `\{` is 0.1's JSON (`{ ...request, id }`), read for
 *   ever by {@link parseStoredRecord}; a later format takes new tag bytes.
 */

/** Crawlee 3.18 `Request` defaults: a field holding one of these is not stored, and is restored on read. */
const DEFAULTS = { method: 'GET', noRetry: false, retryCount: 0 } as const;
/** Defaults that are empty containers: restored as fresh objects on read. */
const EMPTY_DEFAULTS = ['errorMessages', 'headers'] as const;

const isPlainEmptyObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
const isDefault = (key: string, value: unknown): boolean => {
  if (value === undefined || value === null) return true;
  if (key in DEFAULTS) return DEFAULTS[key as keyof typeof DEFAULTS] === value;
  if (key === 'errorMessages') return Array.isArray(value) && value.length === 0;
  if (key === 'headers') return isPlainEmptyObject(value);
  return false;
};

/** The first byte of a 0.1 entry. */
export const LEGACY_TAG = '{';
/** The tag bytes of format 2. */
export const FORMAT2_TAGS = ['S', 'H', 'V', 'J', 's', 'h', 'v'] as const;

/** A stored record: text, or bytes when it holds a fingerprint. */
export type StoredRecord = string | Buffer;

/**
 * Encodes a request as a format-2 record. The caller has validated it (`request-rules.ts`) and serialized every
 * value to JSON already (`json` is `JSON.stringify` of the whole request with the caller's replacer): the record is
 * built from that parsed copy, so it holds exactly what JSON would (no functions, Dates as strings, `toJSON`
 * applied).
 *
 * @param plain - the request as plain JSON values (no `id` needed; an `id` field is dropped)
 * @returns the record: a string, or a Buffer when its uniqueKey is a fingerprint
 */
export function encodeRecord(plain: Record<string, unknown>): StoredRecord {
  const url = plain.url as string;
  const other: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plain)) {
    if (key === 'id' || key === 'url' || key === 'userData' || key === 'uniqueKey') continue;
    if (isDefault(key, value)) continue;
    other[key] = value;
  }
  const multiline = url.includes('\n');
  let kind = uniqueKeyKind(plain.uniqueKey, url);
  if (kind === 'normalized' && multiline) kind = 'field'; // a "J" record has no tag case to carry it
  if (kind === 'field') other.uniqueKey = plain.uniqueKey;
  const userData = plain.userData;
  const hasUserData = userData !== undefined && userData !== null && !isPlainEmptyObject(userData);
  let text: string;
  if (multiline) {
    text = `J${JSON.stringify({ url, ...(hasUserData ? { userData } : {}), ...other })}`;
  } else {
    const lower = kind === 'normalized';
    let head: string;
    if (url.startsWith('https://')) head = `${lower ? 's' : 'S'}${url.slice(8)}`;
    else if (url.startsWith('http://')) head = `${lower ? 'h' : 'H'}${url.slice(7)}`;
    else head = `${lower ? 'v' : 'V'}${url}`;
    const ud = hasUserData ? JSON.stringify(userData) : '';
    text = Object.keys(other).length > 0 ? `${head}\n${ud}\n${JSON.stringify(other)}` : `${head}\n${ud}`;
  }
  if (kind !== 'fingerprint') return text;
  return Buffer.concat([Buffer.of(FINGERPRINT_MARK), Buffer.from(plain.uniqueKey as string, 'hex'), Buffer.from(text, 'utf8')]);
}

/** A record read back as plain fields (before the request rules are checked), or why it cannot be read. `uniqueKeyFrom`
 * says where the uniqueKey came from: a marker's uniqueKey (`normalized`, `fingerprint`) is proven only by the id. */
export type ParsedRecord =
  | { ok: true; fields: Record<string, unknown>; format: 1 | 2; uniqueKeyFrom: UniqueKeyKind }
  | { ok: false; reason: string };

function parseJsonObject(text: string, what: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `unreadable JSON${what}: ${(error as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `unknown format: ${what ? `${what.trim()} ` : ''}not a JSON object`;
  return value as Record<string, unknown>;
}

/** Crawlee's defaults for the fields a format-2 record leaves out. */
function withDefaults(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { url: fields.url, uniqueKey: fields.url, ...DEFAULTS };
  for (const key of EMPTY_DEFAULTS) out[key] = key === 'errorMessages' ? [] : {};
  out.userData = {};
  return Object.assign(out, fields);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Splits a fingerprint record's 20 bytes from its text. */
function splitFingerprint(raw: StoredRecord): { fingerprint?: string; text: string } | string {
  if (typeof raw === 'string') {
    // Text cannot hold the 20 raw bytes: the reader decoded them already and lost them.
    if (raw.charCodeAt(0) === FINGERPRINT_MARK) return 'unknown format: a fingerprint record read as text (read records as bytes)';
    return { text: raw };
  }
  let body = raw;
  let fingerprint: string | undefined;
  if (raw[0] === FINGERPRINT_MARK) {
    if (raw.length < FINGERPRINT_BYTES + 2) return `unknown format: fingerprint record shorter than its ${FINGERPRINT_BYTES} bytes and a tag (truncated?)`;
    fingerprint = raw.toString('hex', 1, FINGERPRINT_BYTES + 1);
    body = raw.subarray(FINGERPRINT_BYTES + 1);
  }
  try {
    return { fingerprint, text: UTF8.decode(body) };
  } catch {
    return 'unknown format: bytes are not UTF-8 (e.g. a pickle)';
  }
}

/**
 * Parses a stored entry of either format into plain fields: a 0.1 JSON entry as it was stored, a format-2 record
 * with Crawlee's defaults restored (`uniqueKey` = url, or the one its marker gives; method GET, retryCount 0, noRetry
 * false, errorMessages [], headers `{}`, userData `{}`). A uniqueKey taken from a marker is not checked here: check
 * `getRequestId(uniqueKey)` against the id (as `decodeRequest` does) before trusting it.
 *
 * @param raw - the stored entry: its bytes (a fingerprint record is only readable as bytes), or its UTF-8 text
 * @returns the fields, or the reason the entry cannot be read (for the dead letters)
 */
export function parseStoredRecord(raw: StoredRecord): ParsedRecord {
  const split = splitFingerprint(raw);
  if (typeof split === 'string') return { ok: false, reason: split };
  const parsed = parseText(split.text);
  if (!parsed.ok || split.fingerprint === undefined) return parsed;
  if (parsed.uniqueKeyFrom !== 'url' || parsed.format !== 2) {
    return { ok: false, reason: 'unknown format: a fingerprint marker beside another uniqueKey (corrupted record)' };
  }
  parsed.fields.uniqueKey = split.fingerprint;
  return { ...parsed, uniqueKeyFrom: 'fingerprint' };
}

function parseText(text: string): ParsedRecord {
  const tag = text[0];
  if (tag === LEGACY_TAG) {
    const value = parseJsonObject(text, '');
    return typeof value === 'string' ? { ok: false, reason: value } : { ok: true, fields: value, format: 1, uniqueKeyFrom: 'field' };
  }
  if (tag === 'J') {
    const value = parseJsonObject(text.slice(1), '');
    if (typeof value === 'string') return { ok: false, reason: value };
    if (typeof value.url !== 'string') return { ok: false, reason: 'unknown format: format-2 record without url' };
    return { ok: true, fields: withDefaults(value), format: 2, uniqueKeyFrom: 'uniqueKey' in value ? 'field' : 'url' };
  }
  const scheme = tag === undefined ? '' : tag.toUpperCase();
  if (scheme !== 'S' && scheme !== 'H' && scheme !== 'V') {
    return { ok: false, reason: `unknown format: first byte ${JSON.stringify(text.slice(0, 1))} is no known record tag (0.1 JSON "{" or format 2 "S", "H", "V", "J", "s", "h", "v", "#")` };
  }
  const nl = text.indexOf('\n');
  if (nl < 0) return { ok: false, reason: 'unknown format: format-2 record without its userData line (truncated?)' };
  const rest = text.slice(1, nl);
  const url = scheme === 'S' ? `https://${rest}` : scheme === 'H' ? `http://${rest}` : rest;
  const nl2 = text.indexOf('\n', nl + 1);
  const udText = text.slice(nl + 1, nl2 < 0 ? undefined : nl2);
  const fields: Record<string, unknown> = { url };
  if (nl2 >= 0) {
    const other = parseJsonObject(text.slice(nl2 + 1), ' in the other fields');
    if (typeof other === 'string') return { ok: false, reason: other };
    Object.assign(fields, other);
    fields.url = url;
  }
  if (udText !== '') {
    const userData = parseJsonObject(udText, ' in userData');
    if (typeof userData === 'string') return { ok: false, reason: userData };
    fields.userData = userData;
  }
  let uniqueKeyFrom: UniqueKeyKind = 'uniqueKey' in fields ? 'field' : 'url';
  if (tag !== scheme) {
    if (uniqueKeyFrom === 'field') return { ok: false, reason: 'unknown format: a normalized-URL marker beside a stored uniqueKey (corrupted record)' };
    fields.uniqueKey = normalizedUniqueKeyOf(url);
    uniqueKeyFrom = 'normalized';
  }
  return { ok: true, fields: withDefaults(fields), format: 2, uniqueKeyFrom };
}

/**
 * The fields of a stored entry of either format (Crawlee's defaults restored), for readers that only look.
 * @param raw - the stored entry (bytes, or UTF-8 text of a record without a fingerprint)
 * @throws an `Error` with the reason when the entry cannot be read
 */
export function storedFields(raw: StoredRecord): Record<string, unknown> {
  const parsed = parseStoredRecord(raw);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.fields;
}

import { Request } from 'crawlee';

/**
 * How a stored record holds its request's uniqueKey (`record-format.ts`). The two common uniqueKeys that are not the
 * URL itself cost (almost) nothing: Crawlee's default uniqueKey, the normalized URL, is recomputed from the URL on
 * read; a Scrapy fingerprint (40 lowercase hex characters) is stored as its 20 bytes.
 *
 * - `url`: the uniqueKey is the URL (nothing stored).
 * - `normalized`: the uniqueKey is what Crawlee's `Request` computes for the URL (`Request.computeUniqueKey({ url })`,
 *   i.e. `normalizeUrl` of `@apify/utilities`, the same function, not a copy); the record's tag byte is lower case.
 * - `fingerprint`: 40 lowercase hex; the record starts with `#` and the 20 raw bytes.
 * - `field`: any other uniqueKey, stored in the record's other-fields JSON as before.
 *
 * A marker is a claim the reader cannot check on its own: the request id (`sha256(uniqueKey)`, the hash field the
 * record lives under) is what proves it. Every reader that takes a uniqueKey from a marker checks it against the id, so
 * a record whose marker does not hold (bytes corrupted, or a Crawlee whose `normalizeUrl` differs from the writer's)
 * is a dead letter, never a request under a wrong uniqueKey.
 */
export type UniqueKeyKind = 'url' | 'normalized' | 'fingerprint' | 'field';

/** First byte of a record whose uniqueKey is a fingerprint; the 20 fingerprint bytes follow. */
export const FINGERPRINT_MARK = 0x23; // '#'
/** Bytes of a stored fingerprint. */
export const FINGERPRINT_BYTES = 20;

const FINGERPRINT = /^[0-9a-f]{40}$/;

/**
 * Crawlee's default uniqueKey of a URL: what `new Request({ url })` sets (`normalizeUrl`, no fragment).
 * @param url - an absolute URL
 */
export function normalizedUniqueKeyOf(url: string): string {
  return Request.computeUniqueKey({ url, method: 'GET' });
}

/**
 * Which of the compact forms a uniqueKey takes beside its URL.
 * @param uniqueKey - the request's uniqueKey
 * @param url - the request's URL
 * @returns the kind: `field` when no compact form applies
 */
export function uniqueKeyKind(uniqueKey: unknown, url: string): UniqueKeyKind {
  if (uniqueKey === url) return 'url';
  if (typeof uniqueKey !== 'string') return 'field';
  if (uniqueKey.length === 40 && FINGERPRINT.test(uniqueKey)) return 'fingerprint';
  // Only a uniqueKey that differs from the URL pays for the normalization (a URL parse).
  return normalizedUniqueKeyOf(url) === uniqueKey ? 'normalized' : 'field';
}

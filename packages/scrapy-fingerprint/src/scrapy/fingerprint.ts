import { checkOptionNames, FINGERPRINT_OPTIONS } from '../known-options.js';
import * as crypto from 'node:crypto';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { type BinaryString, binaryToHex, encodeText } from '../python/codecs.js';
import { bytesTitle } from '../python/casing.js';
import { needsJsonEscape, pyJsonString } from '../python/json.js';
import { canonicalizeSafeParts, canonicalizeUrl } from '../w3lib/canonicalize-url.js';
import { paramsIndex } from '../python/urlsplit.js';
import { buildScrapyRequest, type FingerprintRequest, type ScrapyRequest } from './request.js';
import { appliesEscapeAjax, type ScrapyRequestVersion } from './request-version.js';

/**
 * Which fingerprint to compute:
 * - `'scrapy'`: Scrapy 2.7+ `scrapy.utils.request.fingerprint()` (the only one since Scrapy 2.12).
 * - `'scrapy-2.6'`: the legacy `request_fingerprint()` of Scrapy 2.11 and older (SHA-1 over concatenated parts, with the
 *   `#!` → `_escaped_fragment_` rewrite those versions applied), for dupefilter sets written by old projects.
 * - `'scrapy-redis'`: scrapy-redis 0.8+ `RFPDupeFilter.request_fingerprint` (JSON without headers, never keeps
 *   fragments), to share a scrapy-redis `<spider>:dupefilter` set.
 */
export type FingerprintRecipe = 'scrapy' | 'scrapy-2.6' | 'scrapy-redis';

/** The recipes, for validation and documentation. */
export const FINGERPRINT_RECIPES: readonly FingerprintRecipe[] = ['scrapy', 'scrapy-2.6', 'scrapy-redis'];

/** Options of {@link fingerprint}. */
export interface FingerprintOptions {
  /** @defaultValue `'scrapy'` */
  recipe?: FingerprintRecipe;
  /**
   * Header names (any case) whose values enter the fingerprint; ignored by `'scrapy-redis'`.
   * @defaultValue none
   */
  includeHeaders?: readonly string[];
  /**
   * Keep the `#fragment` in the hashed URL; ignored by `'scrapy-redis'`.
   * @defaultValue `false`
   */
  keepFragments?: boolean;
  /**
   * The Scrapy version whose `Request()` the other fleet runs, which decides what happens to a `#!` URL before it is
   * hashed: `'<=2.12'` rewrites `#!frag` to `?_escaped_fragment_=frag` (`escape_ajax`, merged into the existing
   * query as Scrapy does), `'2.13+'` does not. Applies to `'scrapy'` and `'scrapy-redis'` (scrapy-redis hashes the
   * `request.url` of whatever Scrapy runs it: Debian 12's Scrapy 2.8 needs `'<=2.12'`). `'scrapy-2.6'` always
   * rewrites (it only exists in Scrapy 2.11 and older) and rejects `'2.13+'`.
   * @defaultValue `'2.13+'` for `'scrapy'` and `'scrapy-redis'`, `'<=2.12'` for `'scrapy-2.6'`
   */
  scrapyRequest?: ScrapyRequestVersion;
}

/** Everything that went into one fingerprint, for debugging and the conformance suite. */
export interface FingerprintDetails {
  /** The request after Scrapy's `Request()` processing. */
  request: ScrapyRequest;
  /** The canonical URL that was hashed. */
  url: string;
  /** The exact text hashed (JSON recipes) or the hashed parts (`'scrapy-2.6'`; strings are binary strings). */
  hashed: string | (BinaryString | Buffer)[];
  /** The SHA-1 as 40 lowercase hex characters. */
  fingerprint: string;
}

/** Header names as Scrapy processes `include_headers`: sorted by code point, then lower-cased, UTF-8. */
function processIncludeHeaders(includeHeaders: readonly string[] | undefined): BinaryString[] {
  if (!includeHeaders || includeHeaders.length === 0) return NONE;
  const list: readonly unknown[] = includeHeaders;
  if (!Array.isArray(list) || list.some((h) => typeof h !== 'string')) {
    throw new InvalidRequestError('includeHeaders', 'expected an array of header names');
  }
  // Python sorts by code point; UTF-16 order only differs when surrogates (non-BMP characters) are involved.
  const byCodePoint = (a: string, b: string): number => {
    if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
    const x = Array.from(a, (c) => c.codePointAt(0)!);
    const y = Array.from(b, (c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  };
  return [...includeHeaders].sort(byCodePoint).map((h) => encodeText(h.toLowerCase(), 'utf-8'));
}

// crypto.hash (Node >= 20.12) is a one-shot digest without a Hash object (and hex output is its fast path).
const oneShot = (crypto as { hash?: (alg: string, data: string | Buffer, enc: 'hex') => string }).hash;

/** SHA-1 hex of ASCII text (the JSON recipes escape everything else). */
function sha1Text(ascii: string): string {
  return oneShot ? oneShot('sha1', ascii, 'hex') : crypto.createHash('sha1').update(ascii, 'latin1').digest('hex');
}

function sha1Parts(parts: (BinaryString | Buffer)[]): string {
  const hash = crypto.createHash('sha1');
  for (const p of parts) {
    if (typeof p === 'string') hash.update(p, 'latin1');
    else hash.update(p);
  }
  return hash.digest('hex');
}

const NONE: BinaryString[] = [];
const ESCAPE_AJAX = { escapeAjax: true };
const NO_ESCAPE_AJAX = { escapeAjax: false };
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The canonical URL as a JSON string. Built from safe parts, everything but the netloc is percent-encoded with a safe
 * set of printable ASCII without `"` and `\`, so only the netloc (short) is scanned for characters to escape.
 */
function jsonUrl(req: ScrapyRequest, url: string): string {
  return req.parts && !needsJsonEscape(req.parts.netloc) ? '"' + url + '"' : pyJsonString(url);
}

/** `json.dumps` of the method: almost always `"GET"`. */
const jsonMethod = (method: string): string => (method === 'GET' ? '"GET"' : pyJsonString(method));

/** Scrapy 2.7+ `fingerprint()`: SHA-1 of `json.dumps({body, headers, method, url}, sort_keys=True)`. */
function scrapyJson(req: ScrapyRequest, url: string, include: BinaryString[]): string {
  const body = req.body.length ? req.body.toString('hex') : '';
  const tail = `"method": ${jsonMethod(req.method)}, "url": ${jsonUrl(req, url)}}`;
  if (include.length === 0) return `{"body": "${body}", "headers": {}, ${tail}`;
  const headers = new Map<string, string[]>();
  for (const name of include) {
    const values = req.headers.get(bytesTitle(name));
    if (values) headers.set(binaryToHex(name), values.map(binaryToHex));
  }
  const keys = [...headers.keys()].sort();
  const headersJson = keys
    .map((k) => `"${k}": [${headers.get(k)!.map((v) => `"${v}"`).join(', ')}]`)
    .join(', ');
  return `{"body": "${body}", "headers": {${headersJson}}, ${tail}`;
}

function checkRecipe(recipe: FingerprintRecipe): void {
  if (!FINGERPRINT_RECIPES.includes(recipe)) {
    throw new InvalidRequestError('recipe', `unknown recipe ${JSON.stringify(recipe)}; use one of ${FINGERPRINT_RECIPES.join(', ')}`);
  }
}

/**
 * Checks fingerprint options once, so a hook can reject bad options when it is created instead of on every request.
 * @param options - the options
 * @throws {@link InvalidRequestError} for an unknown recipe or `scrapyRequest`, or malformed `includeHeaders`
 */
export function checkFingerprintOptions(options: FingerprintOptions): void {
  const recipe = options.recipe ?? 'scrapy';
  checkRecipe(recipe);
  appliesEscapeAjax(recipe, options.scrapyRequest);
  processIncludeHeaders(options.includeHeaders);
}

/**
 * `canonicalize_url(request.url)`. When the safe URL parses back into the parts safe_url_string built it from (an
 * ASCII netloc, see `buildScrapyRequest`), those parts are canonicalized directly: every part but the netloc is
 * already percent-encoded with sets inside canonicalize_url's, and IDNA leaves an ASCII netloc as it is.
 */
function canonical(req: ScrapyRequest, keepFragments: boolean): string {
  const p = req.parts;
  if (!p) return canonicalizeUrl(req.url, { keepFragments });
  const semi = paramsIndex(p.scheme, p.path);
  return semi < 0
    ? canonicalizeSafeParts(p.scheme, p.netloc, p.path, '', p.query, p.fragment, true, keepFragments, p.lowerHost)
    : canonicalizeSafeParts(p.scheme, p.netloc, p.path.slice(0, semi), p.path.slice(semi + 1), p.query, p.fragment,
      true, keepFragments, p.lowerHost);
}

/**
 * Computes a fingerprint and returns every intermediate value.
 * @param request - the request (Crawlee `RequestOptions`-like)
 * @param options - recipe, headers, fragments
 * @returns the details
 * @throws {@link InvalidUrlError} for a URL Scrapy rejects
 * @throws {@link InvalidRequestError} for malformed input or an unknown recipe
 */
export function fingerprintDetails(request: FingerprintRequest, options: FingerprintOptions = {}): FingerprintDetails {
  checkOptionNames('fingerprint', options, FINGERPRINT_OPTIONS);
  const recipe = options.recipe ?? 'scrapy';
  checkRecipe(recipe);
  const escape = appliesEscapeAjax(recipe, options.scrapyRequest);
  const include = processIncludeHeaders(options.includeHeaders);
  const keepFragments = options.keepFragments ?? false;
  const req = buildScrapyRequest(request, escape ? ESCAPE_AJAX : NO_ESCAPE_AJAX);
  if (recipe === 'scrapy-redis') {
    const url = canonical(req, false);
    const json = `{"body": "${req.body.toString('hex')}", "method": ${jsonMethod(req.method)}, "url": ${jsonUrl(req, url)}}`;
    return { request: req, url, hashed: json, fingerprint: sha1Text(json) };
  }
  const url = canonical(req, keepFragments);
  if (recipe === 'scrapy') {
    const json = scrapyJson(req, url, include);
    return { request: req, url, hashed: json, fingerprint: sha1Text(json) };
  }
  const parts: (BinaryString | Buffer)[] = [encodeText(req.method, 'utf-8'), encodeText(url, 'utf-8'), req.body];
  for (const name of include) {
    const values = req.headers.get(bytesTitle(name));
    if (values) parts.push(name, ...values);
  }
  return { request: req, url, hashed: parts, fingerprint: sha1Parts(parts) };
}

/**
 * Scrapy's request fingerprint as 40 lowercase hex characters (what Scrapy's and scrapy-redis's dupefilters store).
 * @param request - `{ url, method?, payload? | body?, headers? }`, as Crawlee passes requests
 * @param options - recipe (default `'scrapy'`, Scrapy 2.7+), `includeHeaders`, `keepFragments`, `scrapyRequest`
 * @returns the fingerprint, e.g. `'cebe46deeab7ee5915824a38cf73ee6f7eb0aba5'` for `GET http://example.com/`
 * @throws {@link InvalidUrlError} for a URL Scrapy's `Request()` rejects (missing scheme, bad port, bad IPv6)
 * @throws {@link InvalidRequestError} for malformed input, an unknown recipe or `scrapyRequest`, or `'2.13+'` with
 *   `'scrapy-2.6'`
 * @throws {@link EncodingError} for an unknown encoding
 */
export function fingerprint(request: FingerprintRequest, options: FingerprintOptions = {}): string {
  return fingerprintDetails(request, options).fingerprint;
}

/**
 * Like {@link fingerprint}, as the 20 raw SHA-1 bytes (what Scrapy's `fingerprint()` returns).
 * @param request - the request
 * @param options - recipe, headers, fragments
 * @returns a 20-byte Buffer
 * @throws {@link InvalidUrlError} for a URL Scrapy rejects
 */
export function fingerprintBytes(request: FingerprintRequest, options: FingerprintOptions = {}): Buffer {
  return Buffer.from(fingerprintDetails(request, options).fingerprint, 'hex');
}

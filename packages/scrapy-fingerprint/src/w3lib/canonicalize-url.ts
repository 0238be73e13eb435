import { checkOptionNames, CANONICALIZE_OPTIONS } from '../known-options.js';
import { tryIdnaEncode } from '../idna/idna.js';
import { encodeText, isUtf8, UnicodeEncodeFailure } from '../python/codecs.js';
import { quoteBinary, quotePlusBinary, unquoteBinary } from '../python/quote.js';
import { type ParseResult, urlparse, urlunparse } from '../python/urlsplit.js';
import { assertUrlString } from './assert-url-string.js';
import { canonicalPath } from './canonical-path.js';
import { SAFE, stripAscii } from './safe-chars.js';

/** Options of {@link canonicalizeUrl}. */
export interface CanonicalizeUrlOptions {
  /**
   * Keep query arguments with an empty value (`a=` and a bare `a`).
   * @defaultValue `true`
   */
  keepBlankValues?: boolean;
  /**
   * Keep the `#fragment`.
   * @defaultValue `false`
   */
  keepFragments?: boolean;
  /**
   * Encoding for the query and fragment; falls back to UTF-8 when it cannot encode them, as w3lib does.
   * @defaultValue `'utf-8'`
   */
  encoding?: string;
}

interface SafeParts {
  scheme: string;
  netloc: string;
  path: string;
  params: string;
  query: string;
  fragment: string;
}

/** w3lib `_safe_ParseResult`: IDNA on the whole netloc (raw on failure), quote the other parts. */
function safeParts(p: ParseResult, encoding: string, asciiParts: boolean, asciiNetloc: boolean): SafeParts {
  const netloc = tryIdnaEncode(p.netloc, asciiNetloc) ?? p.netloc;
  // ASCII text encodes to itself in UTF-8: skip the encoder for the usual all-ASCII URL.
  const identity = asciiParts && isUtf8(encoding);
  return {
    scheme: p.scheme,
    netloc,
    // Not quoted here: canonicalPath escapes every unsafe byte itself and reads an escape the same either way.
    path: asciiParts ? p.path : encodeText(p.path, 'utf-8'),
    params: quoteBinary(asciiParts ? p.params : encodeText(p.params, 'utf-8'), SAFE),
    query: quoteBinary(identity ? p.query : encodeText(p.query, encoding), SAFE),
    fragment: quoteBinary(identity ? p.fragment : encodeText(p.fragment, encoding), SAFE),
  };
}

/** `+` → space, then `unquote_to_bytes` (result as a binary string). */
function unquoteQueryPart(s: string): string {
  if (s.includes('+')) s = s.replace(PLUS, ' ');
  return s.includes('%') ? unquoteBinary(s) : s;
}
const PLUS = /\+/g;

/** w3lib `parse_qsl_to_bytes`: split on `&` and `;`, `+` → space, `%XX` → raw bytes (as binary strings). */
function parseQslToBytes(qs: string, keepBlankValues: boolean): [string, string][] {
  const pairs: [string, string][] = [];
  const n = qs.length;
  let start = 0;
  let amp = qs.indexOf('&');
  let semi = qs.indexOf(';');
  // `&` and `;` split alike (a `;` piece is a sub-piece of an `&` field), so splitting at either is equivalent.
  while (start <= n) {
    if (amp >= 0 && amp < start) amp = qs.indexOf('&', start);
    if (semi >= 0 && semi < start) semi = qs.indexOf(';', start);
    const end = amp < 0 ? (semi < 0 ? n : semi) : semi < 0 ? amp : Math.min(amp, semi);
    if (end > start) {
      const eq = qs.indexOf('=', start);
      if (eq >= 0 && eq < end) {
        const value = qs.slice(eq + 1, end);
        if (value || keepBlankValues) pairs.push([unquoteQueryPart(qs.slice(start, eq)), unquoteQueryPart(value)]);
      } else if (keepBlankValues) {
        pairs.push([unquoteQueryPart(qs.slice(start, end)), '']);
      }
    }
    start = end + 1;
  }
  return pairs;
}

// Binary strings compare char by char like Python bytes (each char is one byte).
const byBytes = (a: [string, string], b: [string, string]): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/**
 * Port of w3lib 2.4.1 `canonicalize_url`, the URL inside Scrapy's fingerprint: sort the query by raw bytes (`&` and
 * `;` both separate), keep blank values, re-encode the query with `quote_plus`, decode and re-encode the path (`%2F`
 * and `%3F` stay), IDNA 2003 on the whole netloc, lower-case the host (not the userinfo), drop the fragment. Default
 * ports, dot segments and invalid escapes are kept.
 * @param url - the URL
 * @param options - blank values, fragments, query encoding
 * @returns the canonical URL
 * @throws {@link InvalidUrlError} where Python's `urlparse` raises (unbalanced or invalid IPv6 brackets)
 * @throws {@link EncodingError} when `encoding` is unknown
 * @throws {@link InvalidRequestError} when `url` is not a string (`null`, `undefined`, a number)
 */
export function canonicalizeUrl(url: string, options: CanonicalizeUrlOptions = {}): string {
  checkOptionNames('canonicalizeUrl', options, CANONICALIZE_OPTIONS);
  assertUrlString(url, 'canonicalizeUrl');
  const { stripped, ascii } = stripAscii(url);
  return canonicalizeParsed(urlparse(stripped, url, ascii, true), options, ascii, ascii);
}

/**
 * {@link canonicalizeUrl} from an already parsed URL (what `urlparse(strip(url))` gives).
 * @param parsed - the parts
 * @param options - as for {@link canonicalizeUrl}
 * @param asciiParts - the caller knows path, params, query and fragment are ASCII
 * @param asciiNetloc - the caller knows the netloc is ASCII
 * @returns the canonical URL
 */
export function canonicalizeParsed(
  parsed: ParseResult,
  options: CanonicalizeUrlOptions = {},
  asciiParts = false,
  asciiNetloc = false,
): string {
  const keepBlankValues = options.keepBlankValues ?? true;
  const keepFragments = options.keepFragments ?? false;
  let parts: SafeParts;
  try {
    parts = safeParts(parsed, options.encoding ?? 'utf-8', asciiParts, asciiNetloc);
  } catch (error) {
    if (!(error instanceof UnicodeEncodeFailure)) throw error;
    parts = safeParts(parsed, 'utf-8', asciiParts, asciiNetloc);
  }

  return canonicalizeSafeParts(parts.scheme, parts.netloc, parts.path, parts.params, parts.query, parts.fragment,
    keepBlankValues, keepFragments, false);
}

/**
 * The last steps of {@link canonicalizeUrl}, on parts already made safe (IDNA netloc, quoted path, params, query and
 * fragment): sort and re-encode the query, canonicalize the path, lower-case the host, drop the fragment.
 * @param scheme - the scheme
 * @param netloc - the netloc, IDNA-encoded
 * @param path - the path, without `;params`
 * @param params - the `;params` of the last segment, without the `;`
 * @param query - the query, without `?`
 * @param fragment - the fragment, without `#`
 * @param keepBlankValues - keep query arguments with an empty value
 * @param keepFragments - keep the fragment
 * @param lowerHost - the caller knows what follows the netloc's last `@` is lower-case and ends in no `:`
 * @returns the canonical URL
 */
export function canonicalizeSafeParts(scheme: string, netloc: string, path: string, params: string, query: string,
  fragment: string, keepBlankValues: boolean, keepFragments: boolean, lowerHost: boolean): string {
  let canonicalQuery = '';
  if (query) {
    const pairs = parseQslToBytes(query, keepBlankValues);
    if (pairs.length > 1) pairs.sort(byBytes);
    for (let i = 0; i < pairs.length; i++) {
      const [k, v] = pairs[i]!;
      canonicalQuery += (i === 0 ? '' : '&') + quotePlusBinary(k) + '=' + quotePlusBinary(v);
    }
  }

  return urlunparse(scheme, lowerHost ? netloc : canonicalNetloc(netloc), canonicalPath(path) || '/', params,
    canonicalQuery, keepFragments ? fragment : '');
}

/** w3lib 2.2.1 and later lower-cases only what follows the last `@` (the host and port), and strips trailing colons. */
function canonicalNetloc(netloc: string): string {
  const at = netloc.lastIndexOf('@');
  let host = (at < 0 ? netloc : netloc.slice(at + 1)).toLowerCase();
  let end = host.length;
  while (end > 0 && host.charCodeAt(end - 1) === 0x3a) end--;
  if (end < host.length) host = host.slice(0, end);
  return at >= 0 ? netloc.slice(0, at + 1) + host : host;
}

import { checkOptionNames, SAFE_URL_OPTIONS } from '../known-options.js';
import { EncodingError } from '../errors/encoding-error.js';
import { assertUrlString } from './assert-url-string.js';
import { tryIdnaEncode } from '../idna/idna.js';
import { decodeUtf8Replace, decodeUtf8Strict, encodeText, isAscii, isUtf8 } from '../python/codecs.js';
import { quoteBinary, unquoteBinary } from '../python/quote.js';
import { netlocParts, type SplitResult, urlsplit, urlunsplit } from '../python/urlsplit.js';
import {
  FRAGMENT_SAFEST,
  PATH_SAFEST,
  QUERY_SAFEST,
  SPECIAL_QUERY_SAFEST,
  isSpecialScheme,
  stripAscii,
  USERINFO_SAFEST,
} from './safe-chars.js';

/** Options of {@link safeUrlString}. */
export interface SafeUrlStringOptions {
  /**
   * Encoding of the query and fragment (the page's encoding; Scrapy passes the request's encoding).
   * @defaultValue `'utf-8'`
   */
  encoding?: string;
  /**
   * Encoding of the path.
   * @defaultValue `'utf-8'`
   */
  pathEncoding?: string;
  /**
   * Percent-encode the path.
   * @defaultValue `true`
   */
  quotePath?: boolean;
}

/** Python `quote(unquote(s), safe)` on str: `unquote` decodes UTF-8 with replacement, `quote` re-encodes UTF-8. */
function requoteUserinfo(s: string): string {
  if (!s.includes('%') && isAscii(s)) return quoteBinary(s, USERINFO_SAFEST);
  const unquoted = isAscii(s) ? decodeUtf8Replace(unquoteBinary(s)) : unquoteStr(s);
  return quoteBinary(encodeText(unquoted, 'utf-8'), USERINFO_SAFEST);
}

/** Python `unquote(str)`: only runs of ASCII are unquoted (then UTF-8-decoded); other characters stay. */
function unquoteStr(s: string): string {
  // eslint-disable-next-line no-control-regex -- Python and w3lib define these sets by C0 code points
  return s.replace(/[\x00-\x7f]+/g, (run) => decodeUtf8Replace(unquoteBinary(run)));
}

/**
 * Port of w3lib 2.4.1 `safe_url_string`: make a URL safe to send, percent-encoding what browsers and RFC 3986 do not
 * allow, IDNA 2003-encoding the host, normalizing the port, putting IPv6 brackets back. Existing `%` escapes are kept
 * as they are, valid or not. This is what Scrapy's `Request()` does to every URL.
 * @param url - the URL (absolute or not)
 * @param options - encodings and path quoting
 * @returns the safe URL
 * @throws {@link InvalidUrlError} where Python's `urlsplit` / `.port` raise (bad port, bad IPv6 literal)
 * @throws {@link EncodingError} when `encoding` is unknown or cannot encode the query
 * @throws {@link InvalidRequestError} when `url` is not a string (`null`, `undefined`, a number)
 */
export function safeUrlString(url: string, options: SafeUrlStringOptions = {}): string {
  checkOptionNames('safeUrlString', options, SAFE_URL_OPTIONS);
  assertUrlString(url, 'safeUrlString');
  return safeUrlParts(url, options).url;
}

/** {@link safeUrlString}'s result with the parts it was built from. */
export interface SafeUrlParts extends SplitResult {
  /** The safe URL (`urlunsplit` of the parts). */
  url: string;
  /** Whether the input URL was all ASCII (then so is every part). */
  ascii: boolean;
  /**
   * Whether what follows the netloc's last `@` is already lower-case and ends in no `:` (what canonicalize_url makes
   * of it): the host was lower-cased, and IDNA keeps an ASCII host as it is. Not so for an IPv6 zone id (`%Eth0`),
   * which `.hostname` keeps as is, or a non-ASCII host.
   */
  lowerHost: boolean;
}

/**
 * {@link safeUrlString}, also returning the parts, so a caller can canonicalize without parsing the result again.
 * @param url - the URL
 * @param options - encodings and path quoting
 * @returns the safe URL and its parts
 */
export function safeUrlParts(url: string, options: SafeUrlStringOptions = {}): SafeUrlParts {
  assertUrlString(url, 'safeUrlParts');
  const encoding = options.encoding ?? 'utf-8';
  const pathEncoding = options.pathEncoding ?? 'utf-8';
  const quotePath = options.quotePath ?? true;
  const { stripped, ascii } = stripAscii(url);
  const parts = urlsplit(stripped, url, ascii, true);
  const { username, password, hostname, port } = netlocParts(url, parts.netloc);

  let netloc = '';
  if (username !== null || password !== null) {
    if (username !== null) netloc += requoteUserinfo(username);
    if (password !== null) netloc += ':' + requoteUserinfo(password);
    netloc += '@';
  }
  if (hostname) {
    if (hostname.includes(':')) {
      if (!isAscii(hostname)) throw new EncodingError('ascii', `Cannot encode the IPv6 host ${JSON.stringify(hostname)}`);
      netloc += `[${hostname}]`;
    } else {
      // Python keeps the raw host when IDNA fails (empty label, label too long, prohibited character).
      netloc +=
        tryIdnaEncode(hostname, ascii) ?? (isUtf8(encoding) ? hostname : decodeUtf8Strict(encodeText(hostname, encoding)));
    }
  }
  if (port !== null) netloc += ':' + String(port);

  const identity = ascii && isUtf8(encoding) && isUtf8(pathEncoding);
  const path = quotePath ? quoteBinary(identity ? parts.path : encodeText(parts.path, pathEncoding), PATH_SAFEST) : parts.path;
  const query = quoteBinary(
    identity ? parts.query : encodeText(parts.query, encoding),
    isSpecialScheme(parts.scheme) ? SPECIAL_QUERY_SAFEST : QUERY_SAFEST,
  );
  const fragment = parts.fragment
    ? quoteBinary(identity ? parts.fragment : encodeText(parts.fragment, encoding), FRAGMENT_SAFEST)
    : '';
  return {
    ascii,
    lowerHost: hostname === null || (!hostname.includes('%') && (ascii || isAscii(hostname))),
    scheme: parts.scheme,
    netloc,
    path,
    query,
    fragment,
    url: urlunsplit(parts.scheme, netloc, path, query, fragment),
  };
}

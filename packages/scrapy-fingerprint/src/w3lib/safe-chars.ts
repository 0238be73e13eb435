import { isAscii } from '../python/codecs.js';
import { safeTable } from '../python/quote.js';

// The percent-encoding safe sets of w3lib 2.4.1 `w3lib/url.py` (RFC 3986 sections 2.2 and 2.3, plus `|` and `%`).
const GEN_DELIMS = ':/?#[]@';
const SUB_DELIMS = "!$&'()*+,;=";
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const SAFE_CHARS = GEN_DELIMS + SUB_DELIMS + UNRESERVED + '|' + '%';
const without = (s: string, remove: string): string => [...s].filter((c) => !remove.includes(c)).join('');

/** `_safe_chars`: canonicalize_url's set for params, query and fragment. */
export const SAFE = safeTable(SAFE_CHARS);
/** `_path_safe_chars`: canonicalize_url's set for the path. */
export const PATH_SAFE = safeTable(without(SAFE_CHARS, '#'));
/** `_PATH_SAFEST_CHARS`: safe_url_string's set for the path. */
export const PATH_SAFEST = safeTable(without(SAFE_CHARS, '#[]|'));
/** `_QUERY_SAFEST_CHARS`: safe_url_string's query set for non-special schemes. */
export const QUERY_SAFEST = PATH_SAFEST;
/** `_SPECIAL_QUERY_SAFEST_CHARS`: safe_url_string's query set for ftp, file, http, https, ws, wss. */
export const SPECIAL_QUERY_SAFEST = safeTable(without(SAFE_CHARS, "#[]|'"));
/** `_FRAGMENT_SAFEST_CHARS`. */
export const FRAGMENT_SAFEST = PATH_SAFEST;
/** `_USERINFO_SAFEST_CHARS`: unreserved plus `!$&'()*+,`. */
export const USERINFO_SAFEST = safeTable(without(UNRESERVED + SUB_DELIMS + ':', ':;='));

/** WHATWG special schemes (w3lib `_SPECIAL_SCHEMES`). */
export const SPECIAL_SCHEMES = new Set(['ftp', 'file', 'http', 'https', 'ws', 'wss']);

/**
 * Whether a (lower-case) scheme is in {@link SPECIAL_SCHEMES}. Compares directly: a scheme is a freshly sliced string,
 * and a Set lookup would hash it on every URL.
 */
export function isSpecialScheme(scheme: string): boolean {
  switch (scheme.length) {
    case 4: return scheme === 'http' || scheme === 'file';
    case 5: return scheme === 'https';
    case 3: return scheme === 'ftp' || scheme === 'wss';
    case 2: return scheme === 'ws';
    default: return false;
  }
}

// eslint-disable-next-line no-control-regex -- Python and w3lib define these sets by C0 code points
const C0_OR_SPACE_EDGES = /^[\x00-\x20]+|[\x00-\x20]+$/g;
const TAB_OR_NEWLINE = /[\t\r\n]/g;
const HAS_TAB_OR_NEWLINE = /[\t\r\n]/;

/** w3lib `_strip`: strip C0 controls and space at both ends, then remove every tab, CR and LF. */
export function strip(url: string): string {
  url = stripEdges(url);
  if (HAS_TAB_OR_NEWLINE.test(url)) url = url.replace(TAB_OR_NEWLINE, '');
  return url;
}

/** The first half of {@link strip}: C0 controls and space at both ends. */
function stripEdges(url: string): string {
  const n = url.length;
  return n > 0 && (url.charCodeAt(0) <= 0x20 || url.charCodeAt(n - 1) <= 0x20) ? url.replace(C0_OR_SPACE_EDGES, '') : url;
}

const NON_ASCII_OR_TAB_NEWLINE = /[\t\n\r\u0080-\uffff]/;

/**
 * {@link strip} and whether the URL is ASCII, from one scan for the usual URL (ASCII, no tab, CR or LF).
 * @param url - the URL
 * @returns the stripped URL, and whether `url` is all ASCII
 */
export function stripAscii(url: string): { stripped: string; ascii: boolean } {
  if (!NON_ASCII_OR_TAB_NEWLINE.test(url)) return { stripped: stripEdges(url), ascii: true };
  return { stripped: strip(url), ascii: isAscii(url) };
}

import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { isAscii } from './codecs.js';
import { checkBracketedHost } from './ipaddress.js';
import { pyRepr } from './repr.js';

/** The five parts of Python's `SplitResult`. */
export interface SplitResult {
  scheme: string;
  netloc: string;
  path: string;
  query: string;
  fragment: string;
}

/** Python's `ParseResult`: `SplitResult` with `;params` split off the last path segment. */
export interface ParseResult extends SplitResult {
  params: string;
}

const USES_NETLOC = new Set(['', 'ftp', 'http', 'gopher', 'nntp', 'telnet', 'imap', 'wais', 'file', 'mms', 'https',
  'shttp', 'snews', 'prospero', 'rtsp', 'rtspu', 'rsync', 'svn', 'svn+ssh', 'sftp', 'nfs', 'git', 'git+ssh', 'ws', 'wss']);
const USES_PARAMS = new Set(['', 'ftp', 'hdl', 'prospero', 'http', 'imap', 'https', 'shttp', 'rtsp', 'rtspu', 'sip',
  'sips', 'mms', 'sftp', 'tel']);
// eslint-disable-next-line no-control-regex -- Python strips C0 controls and space (WHATWG's set)
const LEADING_C0_OR_SPACE = /^[\x00-\x20]+/;
const TAB_OR_NEWLINE = /[\t\r\n]/g;
const HAS_TAB_OR_NEWLINE = /[\t\r\n]/;

function isSchemeChar(c: number, first: boolean): boolean {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (first) return letter;
  return letter || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

/**
 * Python 3.11 `urllib.parse.urlsplit` with Debian 3.11.2-6+deb12u6's bracket checks (the reference the vectors use).
 * @param url - the URL string
 * @param original - the URL to name in errors (defaults to `url`)
 * @param knownAscii - the caller already knows `url` is ASCII (skips the NFKC netloc check, which only applies to non-ASCII)
 * @param stripped - the caller already ran w3lib's `_strip` (which removes all that urlsplit strips)
 * @throws {@link InvalidUrlError} for unbalanced or invalid brackets and NFKC-unsafe netlocs, as Python does
 */
export function urlsplit(url: string, original: string = url, knownAscii = false, stripped = false): SplitResult {
  if (!stripped) {
    if (url.length > 0 && url.charCodeAt(0) <= 0x20) url = url.replace(LEADING_C0_OR_SPACE, '');
    if (HAS_TAB_OR_NEWLINE.test(url)) url = url.replace(TAB_OR_NEWLINE, '');
  }
  let scheme = '';
  let netloc = '';
  let query = '';
  let fragment = '';
  const colon = url.indexOf(':');
  if (colon > 0) {
    let ok = true;
    for (let i = 0; i < colon; i++) {
      if (!isSchemeChar(url.charCodeAt(i), i === 0)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      // The usual schemes as constants: later comparisons and Set lookups then need no hashing of a new string.
      if (colon === 4 && url.startsWith('http')) scheme = 'http';
      else if (colon === 5 && url.startsWith('https')) scheme = 'https';
      else scheme = url.slice(0, colon).toLowerCase();
      url = url.slice(colon + 1);
    }
  }
  if (url.charCodeAt(0) === 0x2f && url.charCodeAt(1) === 0x2f) {
    let end = url.length;
    const slash = url.indexOf('/', 2);
    if (slash >= 0) end = slash;
    const qm = url.indexOf('?', 2);
    if (qm >= 0 && qm < end) end = qm;
    const hash = url.indexOf('#', 2);
    if (hash >= 0 && hash < end) end = hash;
    netloc = url.slice(2, end);
    url = url.slice(end);
    const open = netloc.includes('[');
    const close = netloc.includes(']');
    if (open !== close) throw new InvalidUrlError(original, 'invalid-ipv6', 'Invalid IPv6 URL');
    if (open && close) checkBracketedNetloc(original, netloc);
  }
  const hash = url.indexOf('#');
  if (hash >= 0) {
    fragment = url.slice(hash + 1);
    url = url.slice(0, hash);
  }
  const qm = url.indexOf('?');
  if (qm >= 0) {
    query = url.slice(qm + 1);
    url = url.slice(0, qm);
  }
  if (!knownAscii) checkNetloc(original, netloc);
  return { scheme, netloc, path: url, query, fragment };
}

function checkBracketedNetloc(original: string, netloc: string): void {
  const hostAndPort = rpartitionAt(netloc);
  const open = hostAndPort.indexOf('[');
  let hostname: string;
  if (open >= 0) {
    if (open > 0) throw new InvalidUrlError(original, 'invalid-ipv6', 'Invalid IPv6 URL');
    const bracketed = hostAndPort.slice(open + 1);
    const close = bracketed.indexOf(']');
    hostname = close >= 0 ? bracketed.slice(0, close) : bracketed;
    const port = close >= 0 ? bracketed.slice(close + 1) : '';
    if (port && !port.startsWith(':')) throw new InvalidUrlError(original, 'invalid-ipv6', 'Invalid IPv6 URL');
  } else {
    const c = hostAndPort.indexOf(':');
    hostname = c >= 0 ? hostAndPort.slice(0, c) : hostAndPort;
  }
  checkBracketedHost(original, hostname);
}

/** Python's `_checknetloc`: a non-ASCII netloc must not gain `/ ? # @ :` under NFKC. */
function checkNetloc(original: string, netloc: string): void {
  if (!netloc || isAscii(netloc)) return;
  const n = netloc.replace(/[@:#?]/g, '');
  const normalized = n.normalize('NFKC');
  if (n === normalized) return;
  if (/[/?#@:]/.test(normalized)) {
    throw new InvalidUrlError(original, 'invalid-netloc',
      `netloc '${netloc}' contains invalid characters under NFKC normalization`);
  }
}

/** The part after the last `@` (Python `netloc.rpartition('@')[2]`). */
function rpartitionAt(netloc: string): string {
  const at = netloc.lastIndexOf('@');
  return at >= 0 ? netloc.slice(at + 1) : netloc;
}

/** Python `urlparse`: `urlsplit` plus the `;params` split for schemes in `uses_params`. */
export function urlparse(url: string, original: string = url, knownAscii = false, stripped = false): ParseResult {
  return splitParams(urlsplit(url, original, knownAscii, stripped));
}

/** The `;params` step of Python's `urlparse`, applied to a split result (modified in place). */
export function splitParams(split: SplitResult): ParseResult {
  const s = split as ParseResult;
  s.params = '';
  const i = paramsIndex(s.scheme, s.path);
  if (i >= 0) {
    s.params = s.path.slice(i + 1);
    s.path = s.path.slice(0, i);
  }
  return s;
}

/**
 * Where `urlparse` splits `;params` off a path: the first `;` of the last segment, for schemes in `uses_params`.
 * @param scheme - the lower-case scheme
 * @param path - the path
 * @returns the index of that `;`, or -1
 */
export function paramsIndex(scheme: string, path: string): number {
  if (!path.includes(';') || !USES_PARAMS.has(scheme)) return -1;
  const slash = path.lastIndexOf('/');
  return slash >= 0 ? path.indexOf(';', slash) : path.indexOf(';');
}

/** Python 3.11 `urlunsplit`. */
export function urlunsplit(scheme: string, netloc: string, path: string, query: string, fragment: string): string {
  let url = path;
  if (netloc || (scheme && USES_NETLOC.has(scheme) && !url.startsWith('//'))) {
    if (url && url[0] !== '/') url = '/' + url;
    url = '//' + netloc + url;
  }
  if (scheme) url = scheme + ':' + url;
  if (query) url += '?' + query;
  if (fragment) url += '#' + fragment;
  return url;
}

/** Python 3.11 `urlunparse`. */
export function urlunparse(scheme: string, netloc: string, path: string, params: string, query: string,
  fragment: string): string {
  return urlunsplit(scheme, netloc, params ? `${path};${params}` : path, query, fragment);
}

/** The netloc pieces `safe_url_string` reads, from one scan (`SplitResult.username/password/hostname/port`). */
export interface NetlocParts {
  username: string | null;
  password: string | null;
  hostname: string | null;
  port: number | null;
}

/**
 * `SplitResult.username`, `.password`, `.hostname` and `.port` together.
 * @throws {@link InvalidUrlError} for a bad port, as Python's `.port`
 */
export function netlocParts(original: string, netloc: string): NetlocParts {
  if (netloc === '') return { username: null, password: null, hostname: null, port: null };
  const at = netloc.lastIndexOf('@');
  let username: string | null = null;
  let password: string | null = null;
  if (at >= 0) {
    const c = netloc.indexOf(':');
    if (c >= 0 && c < at) {
      username = netloc.slice(0, c);
      password = netloc.slice(c + 1, at);
    } else username = netloc.slice(0, at);
  }
  const info = hostinfoOf(netloc);
  return { username, password, hostname: lowerHost(info.hostname), port: checkPort(original, info.port) };
}

/** Python's `SplitResult.username` / `.password` (`None` → `null`). */
export function userinfoOf(netloc: string): { username: string | null; password: string | null } {
  const at = netloc.lastIndexOf('@');
  if (at < 0) return { username: null, password: null };
  const userinfo = netloc.slice(0, at);
  const c = userinfo.indexOf(':');
  return c >= 0
    ? { username: userinfo.slice(0, c), password: userinfo.slice(c + 1) }
    : { username: userinfo, password: null };
}

const DIGITS = /^[0-9]+$/;

function hostinfoOf(netloc: string): { hostname: string; port: string | null } {
  const hostinfo = rpartitionAt(netloc);
  const open = hostinfo.indexOf('[');
  let hostname: string;
  let port: string;
  if (open >= 0) {
    const bracketed = hostinfo.slice(open + 1);
    const close = bracketed.indexOf(']');
    hostname = close >= 0 ? bracketed.slice(0, close) : bracketed;
    const rest = close >= 0 ? bracketed.slice(close + 1) : '';
    const c = rest.indexOf(':');
    port = c >= 0 ? rest.slice(c + 1) : '';
  } else {
    const c = hostinfo.indexOf(':');
    hostname = c >= 0 ? hostinfo.slice(0, c) : hostinfo;
    port = c >= 0 ? hostinfo.slice(c + 1) : '';
  }
  return { hostname, port: port || null };
}

/** Python's `SplitResult.hostname`: lower-cased (zone id after `%` kept), brackets removed, `null` when empty. */
export function hostnameOf(netloc: string): string | null {
  return lowerHost(hostinfoOf(netloc).hostname);
}

function lowerHost(hostname: string): string | null {
  if (!hostname) return null;
  const pct = hostname.indexOf('%');
  return pct >= 0 ? hostname.slice(0, pct).toLowerCase() + hostname.slice(pct) : hostname.toLowerCase();
}

/**
 * Python's `SplitResult.port`: ASCII digits only, 0-65535.
 * @throws {@link InvalidUrlError} with Python's message otherwise
 */
export function portOf(original: string, netloc: string): number | null {
  return checkPort(original, hostinfoOf(netloc).port);
}

function checkPort(original: string, port: string | null): number | null {
  if (port === null) return null;
  if (!DIGITS.test(port)) {
    throw new InvalidUrlError(original, 'invalid-port', `Port could not be cast to integer value as ${pyRepr(port)}`);
  }
  const n = Number(port);
  if (n > 65535) throw new InvalidUrlError(original, 'port-out-of-range', 'Port out of range 0-65535');
  return n;
}

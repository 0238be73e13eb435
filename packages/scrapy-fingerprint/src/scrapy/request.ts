import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { encodeToBuffer, isAscii } from '../python/codecs.js';
import { pyUpper } from '../python/casing.js';
import { escapeAjax } from '../w3lib/escape-ajax.js';
import { safeUrlParts, type SafeUrlParts } from '../w3lib/safe-url-string.js';
import { buildHeaders, checkHeaders, type HeadersInput, type ScrapyHeaders } from './headers.js';

/**
 * A request as Crawlee describes it (`RequestOptions` / `Request`), or as Scrapy does. Only the fields that enter the
 * fingerprint are read.
 */
export interface FingerprintRequest {
  /** The URL, absolute. */
  url: string;
  /** HTTP method, any case. @defaultValue `'GET'` */
  method?: string;
  /** Crawlee's request body. */
  payload?: string | Uint8Array | null;
  /** Scrapy's name for the body; used when `payload` is absent. */
  body?: string | Uint8Array | null;
  /** Request headers; names are case-insensitive. */
  headers?: HeadersInput;
  /** Encoding of a string body, of header values and of the URL's query (Scrapy's `Request(encoding=)`). @defaultValue `'utf-8'` */
  encoding?: string;
}

/** What Scrapy's `Request()` made of a request: the fields its fingerprint reads. */
export interface ScrapyRequest {
  /** `safe_url_string(url)` (and `escape_ajax` when emulating Scrapy 2.12 and older). */
  url: string;
  /** `str(method).upper()`. */
  method: string;
  /** Body bytes. */
  body: Buffer;
  /** Scrapy's case-insensitive headers. */
  headers: ScrapyHeaders;
  /** The parts `url` was built from, when `url` parses back into exactly them (lets the fingerprint skip a parse). */
  parts?: SafeUrlParts;
}

/** Options of {@link buildScrapyRequest}. */
export interface BuildRequestOptions {
  /** Apply the `escape_ajax` of Scrapy 2.12 and older (`#!frag` → `?_escaped_fragment_=frag`). @defaultValue `false` */
  escapeAjax?: boolean;
}

const EMPTY = Buffer.alloc(0);
const UTF8 = { encoding: 'utf-8' };

/** Whether urlunsplit's result ends in a character above U+0020, read from the parts (no flattening of the URL). */
function lastCharAbove0x20(p: SafeUrlParts): boolean {
  const last = p.fragment || p.query || p.path || p.netloc;
  return last.charCodeAt(last.length - 1) > 0x20;
}

/** A {@link ScrapyRequest} whose headers are built on first read (fingerprints read them only for `includeHeaders`). */
class ProcessedRequest implements ScrapyRequest {
  private built: ScrapyHeaders | undefined;

  constructor(
    readonly url: string,
    readonly method: string,
    readonly body: Buffer,
    private readonly input: HeadersInput | undefined,
    private readonly encoding: string,
    readonly parts: SafeUrlParts | undefined,
  ) {}

  get headers(): ScrapyHeaders {
    return (this.built ??= buildHeaders(this.input, this.encoding));
  }
}

/**
 * Does what Scrapy 2.18's `Request.__init__` does to url, method, body and headers.
 * @param request - the request
 * @param options - emulation switches
 * @returns the processed request
 * @throws {@link InvalidUrlError} for a URL Scrapy rejects (missing scheme, bad port, bad IPv6 literal)
 * @throws {@link InvalidRequestError} for fields of the wrong type
 * @throws {@link EncodingError} for an unknown or insufficient encoding
 */
export function buildScrapyRequest(request: FingerprintRequest, options: BuildRequestOptions = {}): ScrapyRequest {
  if (request === null || typeof request !== 'object') {
    throw new InvalidRequestError('request', 'expected an object with a `url` string');
  }
  const { url } = request;
  if (typeof url !== 'string') {
    throw new InvalidRequestError('url', `Request url must be str, got ${url === null ? 'null' : typeof url}`);
  }
  const encoding = request.encoding ?? 'utf-8';
  const method = request.method === undefined || request.method === 'GET' ? 'GET' : pyUpper(String(request.method));
  const built = safeUrlParts(url, encoding === 'utf-8' ? UTF8 : { encoding });
  let safe = built.url;
  if (options.escapeAjax) safe = escapeAjax(safe);
  // With a scheme and a netloc, urlunsplit wrote `scheme://netloc...`: no need to flatten and scan the URL.
  const hasSchemeSeparator = (safe === built.url && built.scheme !== '' && built.netloc !== '') || safe.includes('://');
  if (!hasSchemeSeparator && !safe.startsWith('about:') && !safe.startsWith('data:')) {
    throw new InvalidUrlError(url, 'missing-scheme', `Missing scheme in request url: ${safe}`);
  }
  const rawBody = request.payload ?? request.body;
  let body: Buffer;
  if (rawBody === undefined || rawBody === null || rawBody === '') body = EMPTY;
  else if (typeof rawBody === 'string') body = encodeToBuffer(rawBody, encoding);
  else if (rawBody instanceof Uint8Array) body = Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  else throw new InvalidRequestError('payload', 'expected a string, a Buffer/Uint8Array, null or undefined');
  if (request.headers !== undefined && request.headers !== null && typeof request.headers !== 'object') {
    throw new InvalidRequestError('headers', 'expected an object mapping header names to values');
  }
  // urlsplit(url) gives the same parts back when the netloc is ASCII and non-empty, the path is empty or absolute
  // (so urlunsplit added nothing) and the URL does not end in something `strip` would remove.
  const reparses =
    safe === built.url &&
    built.netloc !== '' &&
    (built.ascii || isAscii(built.netloc)) &&
    (built.path === '' || built.path.charCodeAt(0) === 0x2f) &&
    lastCharAbove0x20(built);
  checkHeaders(request.headers, encoding);
  return new ProcessedRequest(safe, method, body, request.headers, encoding, reparses ? built : undefined);
}

import { InvalidUrlError } from '../errors/invalid-url-error.js';
import { fingerprintDetails } from '../scrapy/fingerprint.js';
import { appliesEscapeAjax } from '../scrapy/request-version.js';
import type { HeadersInput } from '../scrapy/headers.js';
import type { ScrapyRequestVersion } from '../scrapy/request-version.js';
import { canonicalizeUrl } from '../w3lib/canonicalize-url.js';
import { safeUrlString } from '../w3lib/safe-url-string.js';

/** One line of the conformance input format (`shared/conformance/fingerprint/README.md`). */
export interface ConformanceInput {
  id: string;
  category?: string;
  method?: string;
  url: string;
  body_hex?: string;
  body?: string;
  headers?: HeadersInput;
  include_headers?: string[];
  keep_fragments?: boolean;
  canonicalize_kwargs?: { keep_blank_values?: boolean; keep_fragments?: boolean; encoding?: string };
}

/** The computed fields, named as in `expected.jsonl`. */
export interface ConformanceOutput {
  id: string;
  canonical_url: string | null;
  canonical_error: string | null;
  safe_url: string | null;
  safe_url_error: string | null;
  request_url: string | null;
  request_method: string | null;
  fp_url: string | null;
  fp27: string | null;
  fp27_json: string | null;
  fp26: string | null;
  fp_redis: string | null;
  error: string | null;
}

/** Options of {@link runConformanceCase}. */
export interface ConformanceOptions {
  /**
   * The Scrapy `Request()` to emulate for `request_url`, `fp_url`, `fp27` and `fp_redis` (`fp26` always rewrites `#!`
   * URLs, as Scrapy 2.11 did). `'<=2.12'` reproduces vectors made with Debian's Scrapy 2.8.
   * @defaultValue `'2.13+'` (the shared vectors are Scrapy 2.18's)
   */
  scrapyRequest?: ScrapyRequestVersion;
}

/** Python-style `Type: message` text of an error. */
export function errorText(error: unknown): string {
  if (error instanceof InvalidUrlError) return error.pythonError;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function attempt<T>(fn: () => T): [T | null, string | null] {
  try {
    return [fn(), null];
  } catch (error) {
    return [null, errorText(error)];
  }
}

/**
 * Computes every field of one conformance case, the way the oracle does (canonical and safe URL of the raw input,
 * then the request and its three fingerprints).
 * @param input - one input line
 * @param options - which Scrapy `Request()` to emulate
 * @returns the output line
 * @throws {@link InvalidRequestError} for an unknown `scrapyRequest`
 */
export function runConformanceCase(input: ConformanceInput, options: ConformanceOptions = {}): ConformanceOutput {
  const keepFragments = input.keep_fragments ?? false;
  const kwargs = input.canonicalize_kwargs ?? {};
  const [canonical, canonicalError] = attempt(() =>
    canonicalizeUrl(input.url, {
      keepFragments: kwargs.keep_fragments ?? keepFragments,
      keepBlankValues: kwargs.keep_blank_values,
      encoding: kwargs.encoding,
    }),
  );
  const [safe, safeError] = attempt(() => safeUrlString(input.url));
  const request = {
    url: input.url,
    method: input.method ?? 'GET',
    body: input.body_hex !== undefined ? Buffer.from(input.body_hex, 'hex') : input.body,
    headers: input.headers,
  };
  const scrapyRequest = options.scrapyRequest ?? '2.13+';
  appliesEscapeAjax('scrapy', scrapyRequest);
  const fpOptions = { includeHeaders: input.include_headers, keepFragments, scrapyRequest };
  const out: ConformanceOutput = {
    id: input.id,
    canonical_url: canonical,
    canonical_error: canonicalError,
    safe_url: safe,
    safe_url_error: safeError,
    request_url: null,
    request_method: null,
    fp_url: null,
    fp27: null,
    fp27_json: null,
    fp26: null,
    fp_redis: null,
    error: null,
  };
  try {
    const fp27 = fingerprintDetails(request, { ...fpOptions, recipe: 'scrapy' });
    const fp26 = fingerprintDetails(request, { ...fpOptions, scrapyRequest: '<=2.12', recipe: 'scrapy-2.6' });
    const redis = fingerprintDetails(request, { recipe: 'scrapy-redis', scrapyRequest });
    out.request_url = fp27.request.url;
    out.request_method = fp27.request.method;
    out.fp_url = fp27.url;
    out.fp27 = fp27.fingerprint;
    out.fp27_json = fp27.hashed as string;
    out.fp26 = fp26.fingerprint;
    out.fp_redis = redis.fingerprint;
  } catch (error) {
    out.error = errorText(error);
  }
  return out;
}

import type { FingerprintOptions } from '../scrapy/fingerprint.js';
import type { HeadersInput } from '../scrapy/headers.js';

/** The fields of a Crawlee `RequestOptions` / `Request` that the hooks read (structural, so no runtime import). */
export interface CrawleeRequestLike {
  url: string;
  method?: string;
  payload?: string | Uint8Array | null;
  headers?: HeadersInput;
  uniqueKey?: string;
  keepUrlFragment?: boolean;
  userData?: Record<string, unknown>;
}

/** Options of the Crawlee hooks. */
export interface ScrapyUniqueKeyOptions extends FingerprintOptions {
  /**
   * Scrapy's `dont_filter`: such a request gets a uniqueKey no other request has (`<fingerprint>:<random UUID>`), so
   * the request queue (and any dedup store keyed by uniqueKey) always accepts it. `true` applies to every request, a
   * function decides per request.
   * @defaultValue requests whose `userData.dontFilter === true`
   */
  dontFilter?: boolean | ((request: CrawleeRequestLike) => boolean);
}

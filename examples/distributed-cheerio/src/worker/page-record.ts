/** One line of the output: a page, who crawled it, and the fingerprint it was deduplicated on. */
export interface PageRecord {
  /** The URL fetched, without fragment. */
  url: string;
  title: string;
  worker: string;
  /** Scrapy request fingerprint (40 hex), the request's uniqueKey. */
  fingerprint: string;
}

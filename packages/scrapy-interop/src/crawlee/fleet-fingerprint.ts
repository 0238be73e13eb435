import type { ScrapyUniqueKeyOptions } from 'crawlee-scrapy-fingerprint';

/**
 * The fingerprint the Scrapy fleet's dupefilter stores: scrapy-redis's recipe on the `Request()` of Debian's Scrapy
 * 2.8 (which rewrites `#!` URLs), so the Crawlee workers' uniqueKeys are the members of `<spider>:dupefilter`.
 */
export const FLEET_FINGERPRINT: ScrapyUniqueKeyOptions = { recipe: 'scrapy-redis', scrapyRequest: '<=2.12' };

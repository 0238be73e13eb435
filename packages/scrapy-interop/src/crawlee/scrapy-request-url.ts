import { buildScrapyRequest } from 'crawlee-scrapy-fingerprint/internal';

/**
 * The URL a Scrapy 2.12-or-older fleet fetches for a link: `#!frag` becomes `?_escaped_fragment_=frag` (its
 * `Request()` applies `escape_ajax`). A Crawlee worker that shares a crawl with such a fleet fetches this URL too, so
 * both fleets ask the site for the same thing (an HTTP client never sends the fragment: without the rewrite Crawlee
 * would fetch the page without `#!frag`, which Scrapy treats as a different page). Other URLs, and URLs Scrapy
 * rejects, are returned as they are.
 */
export function scrapyRequestUrl(url: string): string {
  if (!url.includes('#!')) return url;
  try {
    return buildScrapyRequest({ url }, { escapeAjax: true }).url;
  } catch {
    return url;
  }
}

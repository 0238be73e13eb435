/* global console */
// Scrapy's fingerprint and canonical URL from Node.  Run: npm run build && node examples/fingerprint.mjs
import { canonicalizeUrl, fingerprint, InvalidUrlError, safeUrlString } from 'crawlee-scrapy-fingerprint';

console.log(canonicalizeUrl('http://www.example.com/do?c=3&b=5&b=2&a=50'));
// http://www.example.com/do?a=50&b=2&b=5&c=3
console.log(safeUrlString('http://www.bücher.de/a b?q=é'));
// http://www.xn--bcher-kva.de/a%20b?q=%C3%A9

console.log(fingerprint({ url: 'http://example.com/' }));
// cebe46deeab7ee5915824a38cf73ee6f7eb0aba5  (Scrapy >= 2.7 fingerprint().hex())
console.log(fingerprint({ url: 'http://example.com/' }, { recipe: 'scrapy-2.6' }));
// 628735d3a16b67b1dd5fbfbd10a15f2c28362bbd  (Scrapy <= 2.11 request_fingerprint())
console.log(fingerprint({ url: 'http://example.com/' }, { recipe: 'scrapy-redis' }));
// db723d399cb551c9ef8eca77ed8dbed4a0522b4f  (scrapy-redis RFPDupeFilter)

// POST bodies and chosen headers are part of the fingerprint.
console.log(fingerprint(
  { url: 'https://api.example.com/graphql', method: 'POST', payload: '{"q":1}', headers: { 'Accept-Language': 'en' } },
  { includeHeaders: ['accept-language'] },
));

try {
  fingerprint({ url: '/relative/link' });
} catch (error) {
  if (error instanceof InvalidUrlError) console.log(error.code, error.reason, '-', error.pythonError);
  // INVALID_URL missing-scheme - ValueError: Missing scheme in request url: /relative/link
}

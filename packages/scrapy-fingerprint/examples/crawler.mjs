// A CheerioCrawler whose request queue deduplicates with Scrapy's fingerprint, against a local test site.
// Run: npm run build && node examples/crawler.mjs
import { createServer } from 'node:http';
import { CheerioCrawler, Configuration, RequestQueue } from 'crawlee';
import { withScrapyFingerprint } from 'crawlee-scrapy-fingerprint';

const server = createServer((req, res) => {
  res.setHeader('content-type', 'text/html');
  // "/a" and "/a/" are two pages for Scrapy (one for Crawlee's default uniqueKey); "?y=2&x=1" is "?x=1&y=2".
  res.end('<a href="/a">a</a> <a href="/a/">a/</a> <a href="/q?y=2&x=1">q</a> <a href="/q?x=1&y=2">q</a>');
}).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const config = new Configuration({ persistStorage: false });
const requestQueue = withScrapyFingerprint(await RequestQueue.open('scrapy-fp-example', { config }), {
  recipe: 'scrapy', // or 'scrapy-redis' to share keys with a scrapy-redis dupefilter
});

const crawler = new CheerioCrawler({
  requestQueue,
  async requestHandler({ request, enqueueLinks, log }) {
    log.info(`${request.uniqueKey} ${request.url}`);
    await enqueueLinks();
    // Scrapy's dont_filter: crawl this one again even though its fingerprint was seen.
    if (request.url === `${base}/` && request.label !== 'again') await crawler.addRequests([{ url: `${base}/`, userData: { dontFilter: true }, label: 'again' }]);
  },
}, config);

await crawler.run([`${base}/`]);
server.close();
